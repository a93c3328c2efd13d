package app_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

const org = "org_7Ks2NdQ9bYw4RmTx8Ve1"

var owner = app.Owner{OrganizerID: org, Livemode: true}

func endpoint(t *testing.T, e *webhookstest.Env, o app.Owner, types ...string) domain.Endpoint {
	t.Helper()
	url := "https://hooks.example.com/"
	c, err := e.Service.CreateEndpoint(t.Context(), o, domain.EndpointChange{URL: &url, EventTypes: types})
	if err != nil {
		t.Fatal(err)
	}
	return c.Endpoint
}

// disableFailing disables ep as the dispatcher does after 5 days of failures.
func disableFailing(t *testing.T, e *webhookstest.Env, ep domain.Endpoint, at time.Time) {
	t.Helper()
	if _, err := e.Pool.Exec(t.Context(), `UPDATE endpoints SET status = 'disabled', disabled_reason = 'failing', disabled_at = $2,
		failing_since = $3 WHERE id = $1`, ep.ID, at, at.Add(-120*time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// The owners and admins of an endpoint disabled for failing are mailed once; a failure to
// reach auth leaves the notice to the next round, and an organization auth does not know fails
// only its own notice.
func TestOwnersAndAdminsAreToldOnce(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	at := time.Date(2026, 5, 14, 18, 0, 0, 0, time.UTC)
	e.Clock.Set(at)
	notifier, mail, auth := e.Notifier(t)
	auth.SetContacts(org, app.Contact{Email: "ana@trailclub.example", Role: "owner"}, app.Contact{Email: "bo@trailclub.example", Role: "admin"})
	failing := endpoint(t, e, owner, domain.OrderCompleted)
	gone := endpoint(t, e, owner, domain.OrderCompleted)
	disableFailing(t, e, failing, at)
	if _, err := e.Pool.Exec(t.Context(), `UPDATE endpoints SET status = 'disabled', disabled_reason = 'gone', disabled_at = $2 WHERE id = $1`, gone.ID, at); err != nil {
		t.Fatal(err)
	}

	// An organization auth does not know (404) fails its own notice only.
	unknown := endpoint(t, e, app.Owner{OrganizerID: "org_unknown", Livemode: true}, domain.OrderCompleted)
	disableFailing(t, e, unknown, at.Add(-time.Hour))

	auth.Fail(true)
	if err := notifier.NotifyAll(t.Context()); err == nil || len(mail.Messages()) != 0 {
		t.Fatalf("auth down: %v, %d mails", err, len(mail.Messages()))
	}
	if ep, _ := e.Service.Endpoint(t.Context(), owner, failing.ID); ep.NotifiedAt != nil {
		t.Fatal("marked notified though nobody was told")
	}

	auth.Fail(false)
	e.Clock.Advance(time.Minute) // a failed notice waits a minute, then twice as long each round
	if err := notifier.NotifyAll(t.Context()); err == nil {
		t.Fatal("the unknown organization's notice did not fail")
	}
	msgs := mail.Messages()
	var to []string
	for _, m := range msgs {
		to = append(to, m.To...)
		if !strings.Contains(m.Subject, failing.ID) || !strings.Contains(m.Body, failing.URL) {
			t.Errorf("mail %q: %q", m.Subject, m.Body)
		}
	}
	slices.Sort(to)
	if !slices.Equal(to, []string{"ana@trailclub.example", "bo@trailclub.example"}) {
		t.Fatalf("mailed %v", to)
	}
	if ep, _ := e.Service.Endpoint(t.Context(), owner, failing.ID); ep.NotifiedAt == nil || !ep.NotifiedAt.Equal(at.Add(time.Minute)) {
		t.Fatalf("notified at %v, want %v", ep.NotifiedAt, at.Add(time.Minute))
	}
	calls := auth.Calls()
	e.Clock.Advance(2 * time.Minute)
	if err := notifier.NotifyAll(t.Context()); err == nil || len(mail.Messages()) != 2 || auth.Calls() != calls+1 {
		t.Fatalf("a second round: %v, %d mails", err, len(mail.Messages()))
	}

	// Enabled again and disabled again for failing, it is told about again.
	on := true
	if _, err := e.Service.UpdateEndpoint(t.Context(), owner, failing.ID, domain.EndpointChange{Enabled: &on}); err != nil {
		t.Fatal(err)
	}
	disableFailing(t, e, failing, at.Add(240*time.Hour))
	e.Clock.Advance(4 * time.Minute)
	if err := notifier.NotifyAll(t.Context()); err == nil || len(mail.Messages()) != 4 {
		t.Fatalf("disabled again: %v, %d mails", err, len(mail.Messages()))
	}
}

// refusing is a mail sender that refuses the addresses in refused and sends the others.
type refusing struct {
	app.Sender
	mu      sync.Mutex
	refused map[string]bool
}

func (r *refusing) Send(ctx context.Context, m mail.Message) error {
	r.mu.Lock()
	refused := r.refused[m.To]
	r.mu.Unlock()
	if refused {
		return errors.New("550 mailbox unavailable")
	}
	return r.Sender.Send(ctx, m)
}

func (r *refusing) accept(to string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.refused, to)
}

// A contact whose mail fails does not get the others mailed again: each is mailed once, the
// failed one again after a growing wait, and the notice is given up after its rounds.
func TestAFailingRecipientDoesNotReMailTheOthers(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	at := time.Date(2026, 5, 14, 18, 0, 0, 0, time.UTC)
	e.Clock.Set(at)
	notifier, caught, auth := e.Notifier(t)
	sender := &refusing{Sender: notifier.Sender, refused: map[string]bool{"bo@trailclub.example": true}}
	notifier.Sender = sender
	auth.SetContacts(org, app.Contact{Email: "ana@trailclub.example", Role: "owner"}, app.Contact{Email: "bo@trailclub.example", Role: "admin"})
	ep := endpoint(t, e, owner, domain.OrderCompleted)
	disableFailing(t, e, ep, at)

	if err := notifier.NotifyAll(t.Context()); err == nil || len(caught.Messages()) != 1 {
		t.Fatalf("bo's mail failed: %v, %d mails, want an error and ana's", err, len(caught.Messages()))
	}
	for _, wait := range []time.Duration{time.Minute, 2 * time.Minute} {
		e.Clock.Advance(wait - time.Second)
		if err := notifier.NotifyAll(t.Context()); err != nil {
			t.Fatalf("before its wait of %s is over the notice is tried: %v", wait, err)
		}
		e.Clock.Advance(time.Second)
		if err := notifier.NotifyAll(t.Context()); err == nil || len(caught.Messages()) != 1 {
			t.Fatalf("after %s: %v, %d mails, want bo's mail failing again and ana not mailed again", wait, err, len(caught.Messages()))
		}
	}
	sender.accept("bo@trailclub.example")
	e.Clock.Advance(time.Hour)
	if err := notifier.NotifyAll(t.Context()); err != nil {
		t.Fatal(err)
	}
	var to []string
	for _, m := range caught.Messages() {
		to = append(to, m.To...)
	}
	slices.Sort(to)
	if !slices.Equal(to, []string{"ana@trailclub.example", "bo@trailclub.example"}) {
		t.Fatalf("mailed %v, want each once", to)
	}
	if got, _ := e.Service.Endpoint(t.Context(), owner, ep.ID); got.NotifiedAt == nil {
		t.Fatal("not marked notified once everyone was mailed")
	}

	// A recipient that never accepts: the notice is given up after its rounds.
	other := endpoint(t, e, owner, domain.OrderCompleted)
	disableFailing(t, e, other, e.Clock.Now())
	sender.mu.Lock()
	sender.refused["ana@trailclub.example"] = true
	sender.mu.Unlock()
	rounds := 0
	for {
		got, _ := e.Service.Endpoint(t.Context(), owner, other.ID)
		if got.NotifiedAt != nil {
			break
		}
		if rounds++; rounds > 20 {
			t.Fatal("the notice was never given up")
		}
		_ = notifier.NotifyAll(t.Context())
		e.Clock.Advance(5 * time.Hour)
	}
	if rounds != 8 {
		t.Fatalf("given up after %d rounds, want 8", rounds)
	}
}
