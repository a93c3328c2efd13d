package events

import (
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
	registrationevents "github.com/podiumhq/podium/services/registration/events"
)

// TestRegistrationsPublishedOrderEventsAreRead: each order event registration publishes with
// its schema reaches the use case with every value checkout acts on; its next version is
// poison.
func TestRegistrationsPublishedOrderEventsAreRead(t *testing.T) {
	contracts := brokertest.LoadContracts(t, registrationevents.Files)
	const order = "ord_6Tb1Xk8Fq3Wm9Zs2Lp5V" // registration's examples
	for _, want := range []domain.OrderEvent{
		{Type: domain.EventOrderCompleted, OrderID: order},
		{Type: domain.EventOrderReleased, OrderID: order, Reason: "EXPIRED"},
		{Type: domain.EventOrderUnfulfillable, OrderID: order, Reason: domain.ReasonNoPlaceLeft, PaymentRef: "pi_3PqL8e2eZvKYlo2C1xT9mB4R"},
	} {
		t.Run(want.Type, func(t *testing.T) {
			m := contracts.Example(t, want.Type)
			if m.Topic != domain.OrdersTopic {
				t.Fatalf("registration publishes on %s, checkout reads %s", m.Topic, domain.OrdersTopic)
			}
			r := &recorder{}
			c := &OrdersConsumer{Handler: r}
			if err := c.handle(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			if len(r.events) != 1 || r.events[0] != want {
				t.Fatalf("handled %+v, want %+v", r.events, want)
			}
			if err := c.handle(t.Context(), brokertest.NextVersion(t, m)); !broker.IsPoison(err) || len(r.events) != 1 {
				t.Fatalf("the next version: %v, want poison", err)
			}
		})
	}
}
