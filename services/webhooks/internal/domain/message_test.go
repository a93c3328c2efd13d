package domain

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestMessageBodyIsStandardWebhooks(t *testing.T) {
	at := time.Date(2026, 5, 9, 18, 3, 21, 447e6, time.UTC)
	m, err := NewMessage(Event{Type: OrderCompleted, OrganizerID: org, Livemode: true, ObjectID: "ord_1", OccurredAt: at,
		Object: json.RawMessage(`{"orderId":"ord_1"}`)}, 3, "src_1", at.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"order.completed","timestamp":"2026-05-09T18:03:21.447Z","data":{"objectId":"ord_1","sequence":3,"livemode":true,"object":{"orderId":"ord_1"}}}`
	if string(m.Body) != want || !strings.HasPrefix(m.ID, MessagePrefix) || m.SourceID != "src_1" || m.Sequence != 3 {
		t.Fatalf("message %+v body %s", m, m.Body)
	}
	ping, err := NewPing(Endpoint{ID: "we_1", OrganizerID: org, Livemode: true}, at)
	if err != nil {
		t.Fatal(err)
	}
	var b Body
	if err := json.Unmarshal(ping.Body, &b); err != nil || b.Type != Ping || b.Data.ObjectID != "we_1" || b.Data.Sequence != 0 ||
		!strings.Contains(string(b.Data.Object), `"endpointId":"we_1"`) || ping.SourceID != "" {
		t.Fatalf("ping %s: %v", ping.Body, err)
	}
}
