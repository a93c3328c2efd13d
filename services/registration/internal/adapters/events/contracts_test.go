package events_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	checkoutevents "github.com/podiumhq/podium/services/checkout/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TestCheckoutsPublishedPaymentEventsAreRead: each payment event checkout publishes with its
// schema decodes to the payment registration applies, with every value it acts on; its next
// version is poison.
func TestCheckoutsPublishedPaymentEventsAreRead(t *testing.T) {
	contracts := brokertest.LoadContracts(t, checkoutevents.Files)
	amount := int64(5875)
	const order, intent = "ord_6Tb1Xk8Fq3Wm9Zs2Lp5V", "pi_3PqL8e2eZvKYlo2C1xT9mB4R" // checkout's examples
	for _, want := range []app.Payment{
		{Type: domain.EventPaymentSucceeded, OrderID: order, PaymentRef: intent, Amount: &amount},
		{Type: domain.EventPaymentFailed, OrderID: order, Reason: domain.ReleaseExpired},
		{Type: domain.EventPaymentRefunded, OrderID: order, Amount: &amount},
	} {
		t.Run(want.Type, func(t *testing.T) {
			m := contracts.Example(t, want.Type)
			if m.Topic != domain.PaymentsTopic {
				t.Fatalf("checkout publishes on %s, registration reads %s", m.Topic, domain.PaymentsTopic)
			}
			got, ok, err := events.DecodePayment(m)
			if !ok || err != nil {
				t.Fatalf("decoded: %v, %v", ok, err)
			}
			if got.MessageID != m.Headers[broker.HeaderID] || got.Type != want.Type || got.OrderID != want.OrderID ||
				got.PaymentRef != want.PaymentRef || got.Reason != want.Reason || !sameAmount(got.Amount, want.Amount) {
				t.Fatalf("decoded %+v, want %+v", got, want)
			}
			if _, _, err := events.DecodePayment(brokertest.NextVersion(t, m)); !broker.IsPoison(err) {
				t.Fatalf("the next version: %v, want poison", err)
			}
		})
	}
}

func sameAmount(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestCheckoutsRefundSucceededIsRead: checkout's refund.succeeded example decodes to the refund
// registration applies, with every value it acts on.
func TestCheckoutsRefundSucceededIsRead(t *testing.T) {
	m := brokertest.LoadContracts(t, checkoutevents.Files).Example(t, domain.EventRefundSucceeded)
	got, ok, err := events.DecodePayment(m)
	if !ok || err != nil {
		t.Fatalf("decoded: %v, %v", ok, err)
	}
	r := got.Refund
	if got.Type != domain.EventRefundSucceeded || r.OrderID != "ord_6Tb1Xk8Fq3Wm9Zs2Lp5V" || r.AmountRefunded != 2938 || r.OrderRefunded ||
		len(r.TicketIDs) != 1 || r.TicketIDs[0] != "tkt_2Wd4Fe6Rg8Th0Yj2Uk4L" || !r.CancelTickets || got.Test {
		t.Fatalf("decoded %+v", got)
	}
}
