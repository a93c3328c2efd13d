package app_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

func count(t *testing.T, e *webhookstest.Env, sql string) int {
	t.Helper()
	var n int
	if err := e.Pool.QueryRow(t.Context(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// An event no endpoint subscribes to is not stored but takes its sequence number; an event
// redelivered after the inbox forgot it is not stored twice.
func TestUnsubscribedEventsAreNotStoredAndLateRedeliveriesAddNothing(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	at := time.Date(2026, 5, 14, 18, 0, 0, 0, time.UTC)
	e.Clock.Set(at)
	ev := domain.Event{Type: domain.OrderCompleted, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at, Object: json.RawMessage(`{}`)}
	if in, err := e.Service.Ingest(t.Context(), "src_a", ev); err != nil || !in.Stored || in.Deliveries != 0 {
		t.Fatalf("ingest with no subscriber: %+v %v", in, err)
	}
	if n := count(t, e, `SELECT count(*) FROM messages`); n != 0 {
		t.Fatalf("%d messages stored with no subscriber", n)
	}
	endpoint(t, e, owner, domain.OrderCompleted)
	if in, err := e.Service.Ingest(t.Context(), "src_b", ev); err != nil || in.Deliveries != 1 {
		t.Fatalf("ingest: %+v %v", in, err)
	}
	if seq := count(t, e, `SELECT sequence FROM messages WHERE source_id = 'src_b'`); seq != 2 {
		t.Fatalf("sequence %d, want 2 (the unstored event took 1)", seq)
	}

	// The inbox keeps 7 days, the messages 30: a redelivery after the inbox forgot it.
	if _, err := e.Pool.Exec(t.Context(), `DELETE FROM inbox`); err != nil {
		t.Fatal(err)
	}
	if in, err := e.Service.Ingest(t.Context(), "src_b", ev); err != nil || in.Deliveries != 0 {
		t.Fatalf("late redelivery: %+v %v", in, err)
	}
	if m, d := count(t, e, `SELECT count(*) FROM messages`), count(t, e, `SELECT count(*) FROM deliveries`); m != 1 || d != 1 {
		t.Fatalf("%d messages, %d deliveries after a late redelivery, want 1 and 1", m, d)
	}
}
