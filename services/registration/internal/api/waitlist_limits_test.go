package api_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// startLimited starts the service with the given waitlist limits and an event of org A with
// six sold-out categories, cat_w1 to cat_w6.
func startLimited(t *testing.T, l domain.WaitlistLimits) *regtest.Env {
	t.Helper()
	opts := app.DefaultOptions
	opts.WaitlistLimits = l
	env := start(t, regtest.Options{App: &opts})
	e := regtest.Event(evtA, orgA)
	for i := 1; i <= 6; i++ {
		e.Categories = append(e.Categories, domain.Category{ID: fmt.Sprintf("cat_w%d", i), Name: fmt.Sprintf("Wave %d", i),
			TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderOpen, Quota: intp(0), Published: true})
	}
	env.Catalog.Put(e)
	return env
}

func joinAs(t *testing.T, env *regtest.Env, caller identity.Principal, category, email string) (domain.WaitlistEntry, error) {
	t.Helper()
	return env.Service.JoinWaitlist(t.Context(), caller, evtA, domain.JoinInput{
		CategoryID: category, Email: email, Name: "Buyer", TeamSize: 1, OfferURL: "https://shop.example/waitlist",
	})
}

func entriesOf(t *testing.T, env *regtest.Env, email string) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM waitlist_entries WHERE email = $1`, email).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWaitlistJoinsPerEmailPerHour limits an e-mail's new entries with an organizer to the
// hourly cap: a join again of a category answers its entry without counting, a join past
// the cap is refused with 429 and Retry-After and records nothing, test mode and other
// e-mails count apart, and once the hour has passed the e-mail joins again.
func TestWaitlistJoinsPerEmailPerHour(t *testing.T) {
	env := startLimited(t, domain.WaitlistLimits{PerHour: 3})
	first, err := joinAs(t, env, buyerA, "cat_w1", "victim@example.com")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"cat_w2", "cat_w3"} {
		if _, err := joinAs(t, env, buyerA, c, "victim@example.com"); err != nil {
			t.Fatalf("join %s: %v", c, err)
		}
	}
	if again, err := joinAs(t, env, buyerA, "cat_w1", " Victim@Example.com "); err != nil || again.ID != first.ID {
		t.Fatalf("join again: %+v, %v; want the first entry %s", again, err, first.ID)
	}

	env.Clock.Advance(10 * time.Minute)
	_, err = joinAs(t, env, buyerA, "cat_w4", "VICTIM@example.com")
	var f *fault.Error
	if !errors.As(err, &f) || f.Kind != fault.TooManyRequests || f.RetryAfter.Round(time.Second) != 50*time.Minute {
		t.Fatalf("fourth join in the hour: %v, want 429 retried after 50m", err)
	}
	if n := entriesOf(t, env, "victim@example.com"); n != 3 {
		t.Fatalf("%d entries after a refused join, want 3", n)
	}
	r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/waitlist", map[string]any{
		"categoryId": "cat_w5", "email": "victim@example.com", "name": "Victim", "teamSize": 1, "offerUrl": "https://shop.example/w",
	}, env.Browser(t, orgA))
	if r.Status != 429 || r.Header.Get("Retry-After") != "3000" {
		t.Fatalf("join over HTTP: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.Raw)
	}
	wantCode(t, r, "rate_limited")

	testBuyer := buyerA
	testBuyer.Test = true
	if _, err := joinAs(t, env, testBuyer, "cat_w4", "victim@example.com"); err != nil {
		t.Fatalf("join in test mode: %v", err)
	}
	if _, err := joinAs(t, env, buyerA, "cat_w4", "other@example.com"); err != nil {
		t.Fatalf("another e-mail: %v", err)
	}

	env.Clock.Advance(50*time.Minute - time.Second)
	if _, err := joinAs(t, env, buyerA, "cat_w4", "victim@example.com"); !errors.Is(err, fault.ErrTooManyRequests) {
		t.Fatalf("a second before the hour: %v, want 429", err)
	}
	env.Clock.Advance(time.Second)
	if _, err := joinAs(t, env, buyerA, "cat_w4", "victim@example.com"); err != nil {
		t.Fatalf("after the hour: %v", err)
	}
}

// TestWaitlistActiveEntriesPerEmail caps an e-mail's entries in line or offered with an
// organizer: a join past the cap is a 409 waitlist_email_limit recording nothing, and once an
// entry leaves the line (its waitlist closed) the e-mail may join another.
func TestWaitlistActiveEntriesPerEmail(t *testing.T) {
	env := startLimited(t, domain.WaitlistLimits{Active: 2})
	for _, c := range []string{"cat_w1", "cat_w2"} {
		if _, err := joinAs(t, env, buyerA, c, "ann@example.com"); err != nil {
			t.Fatalf("join %s: %v", c, err)
		}
	}
	if _, err := joinAs(t, env, buyerA, "cat_w2", "ann@example.com"); err != nil {
		t.Fatalf("join again at the cap: %v", err)
	}
	if _, err := joinAs(t, env, buyerA, "cat_w3", "ann@example.com"); !errors.Is(err, fault.ErrConflict) || codeOf(err) != domain.CodeWaitlistEmailLimit {
		t.Fatalf("third join: %v, want %s", err, domain.CodeWaitlistEmailLimit)
	}
	if n := entriesOf(t, env, "ann@example.com"); n != 2 {
		t.Fatalf("%d entries after a refused join, want 2", n)
	}
	r := env.Do(t, "POST", "/external/v1/organizer/categories/cat_w1/waitlist/close", nil, env.Secret(t, orgA))
	if r.Status != 200 {
		t.Fatalf("close: %d %s", r.Status, r.Raw)
	}
	if _, err := joinAs(t, env, buyerA, "cat_w3", "ann@example.com"); err != nil {
		t.Fatalf("join once an entry left the line: %v", err)
	}
}
