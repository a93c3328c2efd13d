package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
)

func TestADeliveryReadsWithItsLast50Attempts(t *testing.T) {
	db := deliverytest.NewDB(t)
	e := db.Endpoint(url, now, delivery.NewSecret())
	d := db.Delivery(e, db.Message(`{}`, now), now)
	_, err := db.Pool.Exec(context.Background(), `INSERT INTO attempts (delivery_id, n, started_at, latency_ms)
		SELECT $1, n, $2::timestamptz + n * interval '1 second', 10 FROM generate_series(1, 60) n`, d, now)
	if err != nil {
		t.Fatal(err)
	}
	_, attempts, err := store.New(db.Pool).Delivery(context.Background(), e, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 50 || attempts[0].N != 11 || attempts[49].N != 60 || !attempts[0].StartedAt.Equal(now.Add(11*time.Second)) {
		t.Fatalf("%d attempts from %d, want the last 50 (11..60) in order", len(attempts), attempts[0].N)
	}
}
