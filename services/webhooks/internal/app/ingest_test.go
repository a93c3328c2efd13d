package app_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/app"
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
	if in, err := e.Service.Ingest(t.Context(), []app.Received{{SourceID: "src_a", Event: ev}}); err != nil || in.Fresh != 1 || in.Deliveries != 0 {
		t.Fatalf("ingest with no subscriber: %+v %v", in, err)
	}
	if n := count(t, e, `SELECT count(*) FROM messages`); n != 0 {
		t.Fatalf("%d messages stored with no subscriber", n)
	}
	endpoint(t, e, owner, domain.OrderCompleted)
	if in, err := e.Service.Ingest(t.Context(), []app.Received{{SourceID: "src_b", Event: ev}}); err != nil || in.Deliveries != 1 {
		t.Fatalf("ingest: %+v %v", in, err)
	}
	if seq := count(t, e, `SELECT sequence FROM messages WHERE source_id = 'src_b'`); seq != 2 {
		t.Fatalf("sequence %d, want 2 (the unstored event took 1)", seq)
	}

	// The inbox keeps 7 days, the messages 30: a redelivery after the inbox forgot it.
	if _, err := e.Pool.Exec(t.Context(), `DELETE FROM inbox`); err != nil {
		t.Fatal(err)
	}
	if in, err := e.Service.Ingest(t.Context(), []app.Received{{SourceID: "src_b", Event: ev}}); err != nil || in.Deliveries != 0 {
		t.Fatalf("late redelivery: %+v %v", in, err)
	}
	if m, d := count(t, e, `SELECT count(*) FROM messages`), count(t, e, `SELECT count(*) FROM deliveries`); m != 1 || d != 1 {
		t.Fatalf("%d messages, %d deliveries after a late redelivery, want 1 and 1", m, d)
	}
}

// Events stored together take their objects' sequences in their order, each once, and a
// redelivered batch adds nothing.
func TestABatchOfEventsIsStoredInOrderAndOnce(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{})
	at := time.Date(2026, 5, 14, 18, 0, 0, 0, time.UTC)
	e.Clock.Set(at)
	other := app.Owner{OrganizerID: "org_other", Livemode: true}
	endpoint(t, e, owner, domain.OrderCompleted)
	endpoint(t, e, other, domain.OrderRefunded)
	event := func(o app.Owner, order string) domain.Event {
		return domain.Event{Type: domain.OrderCompleted, OrganizerID: o.OrganizerID, Livemode: o.Livemode, ObjectID: order, OccurredAt: at, Object: json.RawMessage(`{}`)}
	}
	test := app.Owner{OrganizerID: org, Livemode: false}
	batch := []app.Received{
		{SourceID: "src_1", Event: event(owner, "ord_1")},
		{SourceID: "src_2", Event: event(owner, "ord_2")},
		{SourceID: "src_3", Event: event(owner, "ord_1")},
		{SourceID: "src_1", Event: event(owner, "ord_1")}, // the producer's message twice
		{SourceID: "src_4", Event: event(other, "ord_9")}, // not a type its endpoint takes
		{SourceID: "src_5", Event: event(test, "ord_1")},  // no endpoint in test mode
	}
	if in, err := e.Service.Ingest(t.Context(), batch); err != nil || in.Fresh != 5 || in.Deliveries != 3 {
		t.Fatalf("ingest: %+v %v; want 5 new events, 3 deliveries", in, err)
	}
	if in, err := e.Service.Ingest(t.Context(), batch); err != nil || in.Fresh != 0 || in.Deliveries != 0 {
		t.Fatalf("the batch again: %+v %v; want nothing", in, err)
	}
	if in, err := e.Service.Ingest(t.Context(), []app.Received{{SourceID: "src_6", Event: event(owner, "ord_1")}}); err != nil || in.Deliveries != 1 {
		t.Fatalf("ingest: %+v %v", in, err)
	}
	rows, err := e.Pool.Query(t.Context(), `SELECT m.source_id || ':' || m.object_id || ':' || m.sequence || ':' || count(d.id)
		FROM messages m JOIN deliveries d ON d.message_id = m.id GROUP BY m.id ORDER BY m.source_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	err = rows.Err()
	want := []string{"src_1:ord_1:1:1", "src_2:ord_2:1:1", "src_3:ord_1:2:1", "src_6:ord_1:4:1"} // src_5 took 3
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("messages %v (%v), want %v", got, err, want)
	}
}
