package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// failedDeliveries stores n failed deliveries of endpoint, each of a message of its own.
func failedDeliveries(t *testing.T, db *deliverytest.DB, endpoint string, n int) {
	t.Helper()
	_, err := db.Pool.Exec(context.Background(), `
		WITH m AS (
			INSERT INTO messages (id, organizer_id, livemode, type, object_id, sequence, occurred_at, body, created_at)
			SELECT 'msg_bulk' || i, 'org_test', true, 'order.completed', 'ord_' || i, 1, $3, '{}', $3 FROM generate_series(1, $2::int) i
			RETURNING id
		)
		INSERT INTO deliveries (id, endpoint_id, message_id, status, attempts, created_at, finished_at)
		SELECT 'wd_' || m.id, $1, m.id, 'failed', 10, $3, $3 FROM m`, endpoint, n, now)
	if err != nil {
		t.Fatal(err)
	}
}

// A recover of more deliveries than a statement takes recovers them all, in batches; a list
// counts up to 10,001.
func TestRecoverInBatchesAndTheCountIsCapped(t *testing.T) {
	db := deliverytest.NewDB(t)
	repo := store.New(db.Pool)
	e := db.Endpoint(url, now.Add(-48*time.Hour), delivery.NewSecret())
	failedDeliveries(t, db, e, 10_050)

	_, total, err := repo.Deliveries(context.Background(), e, "", domain.Page{Limit: 10})
	if err != nil || total != 10_001 {
		t.Fatalf("total %d (%v), want the count capped at 10001", total, err)
	}
	n, err := repo.RecoverDeliveries(context.Background(), owner, e, now.Add(-time.Hour), now)
	if err != nil || n != 10_050 {
		t.Fatalf("recovered %d (%v), want all 10050", n, err)
	}
	var pending int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM deliveries WHERE status = 'pending'`).Scan(&pending); err != nil || pending != 10_050 {
		t.Fatalf("%d pending (%v)", pending, err)
	}
}

// Deleting an endpoint deletes its deliveries in batches first; another organization's delete
// of it deletes nothing.
func TestDeleteEndpointDeletesItsDeliveriesInBatches(t *testing.T) {
	db := deliverytest.NewDB(t)
	repo := store.New(db.Pool)
	e := db.Endpoint(url, now, delivery.NewSecret())
	failedDeliveries(t, db, e, 2_500)
	if _, err := repo.DeleteEndpoint(context.Background(), app.Owner{OrganizerID: "org_other", Livemode: true}, e); !errors.Is(err, domain.ErrEndpointNotFound) {
		t.Fatalf("another organization's delete: %v", err)
	}
	var left int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM deliveries`).Scan(&left); err != nil || left != 2_500 {
		t.Fatalf("%d deliveries left after another organization's delete (%v)", left, err)
	}
	if _, err := repo.DeleteEndpoint(context.Background(), owner, e); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM deliveries`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d deliveries left (%v)", left, err)
	}
}
