package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/migrations"
)

// TestRefundWorkerMigrationsRunOnALiveTable: checkouts is written while the migrations run, so
// none may queue the writes behind a lock it waits for: while a transaction holds checkouts
// (a long read), the migration gives up at its lock_timeout (55P03) instead of waiting, and,
// run again once the reader is gone, completes: the refund columns, the state check
// validated, the new indexes valid beside the one kept, and a refund an older version
// decided (no next attempt) claimed at once.
func TestRefundWorkerMigrationsRunOnALiveTable(t *testing.T) {
	url := testkit.DatabaseURL(t, testkit.MigrationsBefore(t, migrations.Set(), "00006_"))
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(t.Context(), `INSERT INTO checkouts (id, organizer_id, key_id, event_id, state, currency, total, quote, promocode_state,
		purchaser_email, purchaser_name, order_id, payment_intent, amount_paid, hold_expires_at, created_at, updated_at, refund_reason)
		VALUES ('chk_old', 'org_1', 'key_1', 'evt_1', 'REFUND_PENDING', 'EUR', 100, '{}', 'RELEASED', 'a@example.com', 'Ana', 'ord_old', 'pi_old', 100,
		$1, $1, $1, 'NO_PLACE_LEFT')`, t0); err != nil {
		t.Fatal(err)
	}

	reader, err := pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Rollback(context.WithoutCancel(t.Context())) //nolint:errcheck // rolled back below; this frees the connection when the test fails first
	if _, err := reader.Exec(t.Context(), `SELECT count(*) FROM checkouts`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	err = postgres.Migrate(ctx, url, testkit.Discard(), migrations.Set())
	cancel()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "55P03" {
		t.Fatalf("the migration behind a reader of checkouts: %v, want it to give up at its lock_timeout (55P03)", err)
	}
	if err := reader.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Migrate(t.Context(), url, testkit.Discard(), migrations.Set()); err != nil {
		t.Fatalf("the migration run again: %v", err)
	}

	var validated bool
	if err := pool.QueryRow(t.Context(), `SELECT convalidated FROM pg_constraint WHERE conname = 'checkouts_state_check'`).Scan(&validated); err != nil || !validated {
		t.Fatalf("state check validated: %v %v", validated, err)
	}
	var valid int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE i.indisvalid)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE c.relname IN ('checkouts_refunds_due', 'checkouts_refunds_failed', 'checkouts_processing', 'checkouts_refund_pending')`).Scan(&valid); err != nil ||
		valid != 4 {
		t.Fatalf("%d of the 3 new indexes and the kept one valid (%v)", valid, err)
	}
	c, ok, err := store.New(pool).ClaimRefund(t.Context(), t0, time.Minute)
	if err != nil || !ok || c.ID != "chk_old" || c.RefundClaim != 1 || c.PaymentIntent != "pi_old" {
		t.Fatalf("the refund decided before the migration: %+v %v %v", c, ok, err)
	}
}
