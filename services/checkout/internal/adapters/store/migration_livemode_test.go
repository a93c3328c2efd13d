package store_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/migrations"
)

// TestLivemodeMigrationKeepsExistingDataLive: checkouts, idempotency records and the
// reconciliation mark made before test mode are live data; afterwards every insert must state
// its mode (no default), and the idempotency key's mode is part of its primary key.
func TestLivemodeMigrationKeepsExistingDataLive(t *testing.T) {
	url := testkit.DatabaseURL(t, testkit.MigrationsBefore(t, migrations.Set(), "00008_"))
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, stmt := range []string{
		`INSERT INTO checkouts (id, organizer_id, key_id, event_id, state, currency, total, quote, promocode_state,
		purchaser_email, purchaser_name, hold_expires_at, created_at, updated_at)
		VALUES ('chk_old', 'org_1', 'key_1', 'evt_1', 'OPEN', 'EUR', 100, '{}', 'NONE', 'a@example.com', 'Ana', $1, $1, $1)`,
		`INSERT INTO idempotency_keys (key_id, idempotency_key, request_hash, state, checkout_id, locked_until, created_at, expires_at)
		VALUES ('key_1', 'k-old', '\x00', 'SUCCEEDED', 'chk_old', $1, $1, $1)`,
		`INSERT INTO reconcile_mark (sessions_from) VALUES ($1)`,
	} {
		if _, err := pool.Exec(t.Context(), stmt, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := postgres.Migrate(t.Context(), url, testkit.Discard(), migrations.Set()); err != nil {
		t.Fatal(err)
	}
	repo := store.New(pool)
	if rec, found, err := repo.Idempotency(t.Context(), "key_1", true, "k-old"); err != nil || !found || rec.CheckoutID != "chk_old" {
		t.Fatalf("the old record as live: %+v %v %v", rec, found, err)
	}
	if _, found, _ := repo.Idempotency(t.Context(), "key_1", false, "k-old"); found {
		t.Fatal("the old record matched in test mode")
	}
	if mark, err := repo.ReconcileMark(t.Context(), true); err != nil || !mark.Equal(t0) {
		t.Fatalf("the live mark %v %v", mark, err)
	}
	var live bool
	if err := pool.QueryRow(t.Context(), `SELECT livemode FROM checkouts WHERE id = 'chk_old'`).Scan(&live); err != nil || !live {
		t.Fatalf("the old checkout: livemode %v %v", live, err)
	}
	var defaults int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM information_schema.columns
		WHERE column_name = 'livemode' AND column_default IS NOT NULL`).Scan(&defaults); err != nil || defaults != 0 {
		t.Fatalf("%d livemode columns keep a default (%v)", defaults, err)
	}
	if _, err := pool.Exec(t.Context(), `INSERT INTO idempotency_keys (key_id, idempotency_key, request_hash, state, checkout_id, locked_until,
		created_at, expires_at, livemode) VALUES ('key_1', 'k-old', '\x00', 'RUNNING', 'chk_new', $1, $1, $1, false)`, t0); err != nil {
		t.Fatalf("the same key in test mode: %v", err)
	}
}
