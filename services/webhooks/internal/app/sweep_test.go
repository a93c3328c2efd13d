package app_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// Messages older than the retention go with their deliveries and attempts; newer ones and one
// still being delivered stay.
func TestSweepDeletesWhatIsPastRetention(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{Retention: 720 * time.Hour})
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	endpoint(t, e, owner, domain.OrderCompleted)
	for i, at := range []time.Time{start, start.Add(24 * time.Hour), start.Add(30 * 24 * time.Hour)} {
		e.Clock.Set(at)
		ev := domain.Event{Type: domain.OrderCompleted, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at, Object: json.RawMessage(`{}`)}
		if in, err := e.Service.Ingest(t.Context(), []app.Received{{SourceID: "src_" + string(rune('a'+i)), Event: ev}}); err != nil || in.Deliveries != 1 {
			t.Fatalf("ingest: %+v %v", in, err)
		}
	}
	var delivery string
	if err := e.Pool.QueryRow(t.Context(), `SELECT d.id FROM deliveries d JOIN messages m ON m.id = d.message_id WHERE m.created_at = $1`, start).Scan(&delivery); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Pool.Exec(t.Context(), `INSERT INTO attempts (delivery_id, n, started_at, latency_ms) VALUES ($1, 1, $2, 5)`, delivery, start); err != nil {
		t.Fatal(err)
	}
	// Every delivery but the one of the second message is finished; that one was recovered and
	// is still pending.
	if _, err := e.Pool.Exec(t.Context(), `UPDATE deliveries d SET status = 'succeeded', next_attempt_at = NULL, finished_at = m.created_at
		FROM messages m WHERE m.id = d.message_id AND m.created_at <> $1`, start.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}

	e.Clock.Set(start.Add(720*time.Hour + 36*time.Hour))
	n, err := e.Service.Sweep(t.Context())
	if err != nil || n != 1 {
		t.Fatalf("swept %d: %v, want 1 (the second message is still being delivered)", n, err)
	}
	var messages, deliveries, attempts int
	if err := e.Pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM deliveries), (SELECT count(*) FROM attempts)`).
		Scan(&messages, &deliveries, &attempts); err != nil {
		t.Fatal(err)
	}
	if messages != 2 || deliveries != 2 || attempts != 0 {
		t.Fatalf("left %d messages, %d deliveries, %d attempts; want 2, 2, 0", messages, deliveries, attempts)
	}
}
