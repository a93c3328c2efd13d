package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

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
	if ep, _ := e.Service.Endpoint(t.Context(), owner, failing.ID); ep.NotifiedAt == nil || !ep.NotifiedAt.Equal(at) {
		t.Fatalf("notified at %v, want %v", ep.NotifiedAt, at)
	}
	calls := auth.Calls()
	if err := notifier.NotifyAll(t.Context()); err == nil || len(mail.Messages()) != 2 || auth.Calls() != calls+1 {
		t.Fatalf("a second round: %v, %d mails", err, len(mail.Messages()))
	}

	// Enabled again and disabled again for failing, it is told about again.
	on := true
	if _, err := e.Service.UpdateEndpoint(t.Context(), owner, failing.ID, domain.EndpointChange{Enabled: &on}); err != nil {
		t.Fatal(err)
	}
	disableFailing(t, e, failing, at.Add(240*time.Hour))
	if err := notifier.NotifyAll(t.Context()); err == nil || len(mail.Messages()) != 4 {
		t.Fatalf("disabled again: %v, %d mails", err, len(mail.Messages()))
	}
}
