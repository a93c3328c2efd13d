package events_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

// An unknown version of a mapped type goes to the service's dead letters, stores nothing and
// holds nothing back: the next event is stored.
func TestAnUnknownVersionIsADeadLetter(t *testing.T) {
	e := webhookstest.Start(t, webhookstest.Options{Kafka: true})
	url := "https://hooks.example.com/"
	if _, err := e.Service.CreateEndpoint(t.Context(), app.Owner{OrganizerID: org, Livemode: true}, domain.EndpointChange{URL: &url, EventTypes: []string{domain.OrderCompleted}}); err != nil {
		t.Fatal(err)
	}
	e.Publish(t, domain.OrdersTopic, "ord_1", "src_v2", "podium.registration.order.completed.v2", completed("ord_1"))
	e.Publish(t, domain.OrdersTopic, "ord_1", "src_v1", domain.SourceOrderCompleted, completed("ord_1"))
	testkit.Eventually(t, 20*time.Second, func() string {
		var n int
		if err := e.Pool.QueryRow(t.Context(), `SELECT count(*) FROM messages`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			return fmt.Sprintf("%d messages stored, want the v1 event's", n)
		}
		return ""
	})
	var letters []broker.DeadLetter
	testkit.Eventually(t, 20*time.Second, func() string {
		letters = nil
		err := events.DeadLetters(broker.Cluster{Brokers: e.Brokers}).List(t.Context(), broker.Selection{Topic: domain.OrdersTopic},
			func(dl broker.DeadLetter) error { letters = append(letters, dl); return nil })
		if err != nil {
			return err.Error()
		}
		if len(letters) != 1 {
			return fmt.Sprintf("%d dead letters", len(letters))
		}
		return ""
	})
	if letters[0].MessageID != "src_v2" || letters[0].Group != events.Group {
		t.Fatalf("dead letter %+v", letters[0])
	}
	var source string
	if err := e.Pool.QueryRow(t.Context(), `SELECT source_id FROM messages`).Scan(&source); err != nil || source != "src_v1" {
		t.Fatalf("stored %q: %v", source, err)
	}
}
