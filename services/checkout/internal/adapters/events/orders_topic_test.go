package events

import (
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestAnOrderEventFoundOnAnotherTopicIsPoison: only registration may write
// registration.orders.v1; an order event found on any other topic, which other principals may
// write, is poison (dead-lettered, visible) and never reaches the use case that refunds.
func TestAnOrderEventFoundOnAnotherTopicIsPoison(t *testing.T) {
	for _, typ := range []string{domain.EventOrderCompleted, domain.EventOrderReleased, domain.EventOrderUnfulfillable} {
		for _, topic := range []string{domain.PaymentsTopic, "registration.places.v1", broker.DeadLetterTopic("checkout", domain.OrdersTopic), "checkout.replays"} {
			m := message(typ, "m1", `{"orderId":"ord_1","reason":"NO_PLACE_LEFT","paymentRef":"pi_1"}`)
			m.Topic = topic
			r := &recorder{}
			if err := (&OrdersConsumer{Handler: r}).handle(t.Context(), m); !broker.IsPoison(err) || len(r.events) != 0 {
				t.Errorf("%s on %s: %v, handled %v; want poison, handled nothing", typ, topic, err, r.events)
			}
		}
	}
	r := &recorder{}
	if err := (&OrdersConsumer{Handler: r}).handle(t.Context(), message(domain.EventOrderUnfulfillable, "m1", `{"orderId":"ord_1"}`)); err != nil || len(r.events) != 1 {
		t.Fatalf("from %s: %v, handled %v", domain.OrdersTopic, err, r.events)
	}
}
