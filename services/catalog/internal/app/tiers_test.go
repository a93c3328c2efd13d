package app_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

// TestDateSwitchesAreAnnouncedOnceByOneInstance: the worker's first run sets its mark; a run
// after a tier's window opened or closed (00:00 in the event's zone) announces the category
// once with its card as it is then; while another instance holds the worker's lock, a run
// does nothing.
func TestDateSwitchesAreAnnouncedOnceByOneInstance(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	env.Clock.Set(time.Date(2027, 1, 31, 23, 0, 0, 0, madrid))
	id := importEvent(t, env, catalogtest.Event("tiers", "Tiers", "PUBLISHED", false, `categories:
  - key: a
    name: A
    basePrice: 1000
    tiers:
      - {key: early, price: 500, until: 2027-02-01}
      - {key: late, price: 1500, from: 2027-03-01}
  - {key: b, name: B, basePrice: 2000}
  - key: c
    name: C
    basePrice: 3000
    tiers: [{key: later, price: 2500, from: 2027-02-02}]`))
	e, err := env.Service.AdminEvent(t.Context(), org, "tiers")
	if err != nil {
		t.Fatal(err)
	}
	seen := len(outbox(t, env, 0))
	run := func() int {
		t.Helper()
		n, err := env.Service.SwitchTiers(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := run(); n != 0 {
		t.Fatalf("the first run announced %d", n)
	}
	env.Clock.Advance(59 * time.Minute) // 23:59 local: nothing switched yet
	if n := run(); n != 0 {
		t.Fatalf("announced %d before midnight", n)
	}
	env.Clock.Advance(90 * time.Second) // 00:00:30 local on 2027-02-01: early ended
	if n := run(); n != 1 {
		t.Fatalf("announced %d at the end of early, want 1", n)
	}
	wantPricingChanged(t, env, outbox(t, env, seen), id, e.Categories[0].ID)
	seen++
	if n := run(); n != 0 {
		t.Fatalf("announced the switch again: %d", n)
	}

	// Another instance at it: this one does nothing, and its mark stays.
	tx, err := env.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(t.Context()) //nolint:errcheck // rolled back below unless the test failed first
	if _, err := tx.Exec(t.Context(), `SELECT pg_advisory_xact_lock($1)`, postgres.LockID("catalog", "tier switches")); err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(24 * time.Hour) // c's later tier started
	if n := run(); n != 0 {
		t.Fatalf("ran beside another instance: %d", n)
	}
	if err := tx.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := run(); n != 1 {
		t.Fatalf("announced %d once the other instance was done, want c", n)
	}
	wantPricingChanged(t, env, outbox(t, env, seen), id, e.Categories[2].ID)
	seen++

	// Down for a month: the switch it missed (late started) is announced at the next run.
	env.Clock.Advance(30 * 24 * time.Hour)
	if n := run(); n != 1 {
		t.Fatalf("announced %d after a month, want a", n)
	}
	wantPricingChanged(t, env, outbox(t, env, seen), id, e.Categories[0].ID)
}
