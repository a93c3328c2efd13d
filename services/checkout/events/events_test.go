package events_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/checkout/events"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestEveryEventCheckoutBuildsMatchesItsSchema moves checkouts through the domain's payment
// outcomes (paid, paid with nothing to pay, failed, expired, expired before its session was
// recorded, refunded) and checks every message they return, as the store hands it to the
// outbox, against the published schemas.
func TestEveryEventCheckoutBuildsMatchesItsSchema(t *testing.T) {
	now := time.Date(2026, 5, 9, 20, 2, 58, 31_000_000, time.FixedZone("CEST", 2*3600))
	amount := int64(5875)
	open := func() *domain.Checkout {
		c := &domain.Checkout{ID: domain.NewCheckoutID(), OrganizerID: "org_7Ks2NdQ9bYw4RmTx8Ve1", Livemode: true, EventID: "evt_2Hf9KqW4mZp7Tx1Lc8Rb", State: domain.StateCreated, Currency: "EUR", Total: amount, CreatedAt: now}
		c.Held("ord_6Tb1Xk8Fq3Wm9Zs2Lp5V", nil, now)
		c.Opened(domain.PaymentSession{ID: "cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ", ExpiresAt: now.Add(30 * time.Minute)}, now)
		return c
	}
	payment := func(kind domain.PaymentEventKind, paid bool) domain.PaymentEvent {
		return domain.PaymentEvent{ID: "evt_1PqL8e2eZvKYlo2C", Kind: kind, SessionID: "cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ", Paid: paid, PaymentIntent: "pi_3PqL8e2eZvKYlo2C1xT9mB4R", AmountTotal: &amount, Currency: "eur"}
	}
	var msgs []domain.Message
	msgs = append(msgs, open().ApplyPayment(payment(domain.PaymentCompleted, true), now)...)
	msgs = append(msgs, open().ApplyPayment(payment(domain.PaymentExpired, false), now)...)
	unrecorded := &domain.Checkout{ID: domain.NewCheckoutID(), OrganizerID: "org_7Ks2NdQ9bYw4RmTx8Ve1", Livemode: true, EventID: "evt_2Hf9KqW4mZp7Tx1Lc8Rb", State: domain.StateCreated, Currency: "EUR", Total: amount, CreatedAt: now}
	unrecorded.Held("ord_6Tb1Xk8Fq3Wm9Zs2Lp5V", nil, now)
	msgs = append(msgs, unrecorded.ApplyPayment(payment(domain.PaymentExpired, false), now)...)
	processing := open()
	processing.ApplyPayment(payment(domain.PaymentCompleted, false), now)
	msgs = append(msgs, processing.ApplyPayment(payment(domain.PaymentAsyncFailed, false), now)...)
	noPlace := open()
	noPlace.RefundNoPlace(domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: noPlace.OrderID, PaymentRef: "pi_3PqL8e2eZvKYlo2C1xT9mB4R"}, now)
	msgs = append(msgs, noPlace.Refunded("re_3PqL8e2eZvKYlo2C0uR7dW1s", now)...)
	noPromocode := open()
	noPromocode.RefundNoPromocode(payment(domain.PaymentCompleted, true), now)
	msgs = append(msgs, noPromocode.Refunded("re_3PqL8e2eZvKYlo2C0uR7dW1t", now)...)
	free := &domain.Checkout{ID: domain.NewCheckoutID(), OrganizerID: "org_7Ks2NdQ9bYw4RmTx8Ve1", Livemode: true, EventID: "evt_2Hf9KqW4mZp7Tx1Lc8Rb", State: domain.StateCreated, Currency: "EUR"}
	free.Held("ord_6Tb1Xk8Fq3Wm9Zs2Lp5V", nil, now)
	msgs = append(msgs, free.PaidFree(domain.NewFreeSessionID(), "https://shop.example/thanks?session_id=free_1", now)...)
	partial, err := domain.DecideRefund(domain.Refundable{Checkout: *paidCheckout(open(), amount, now)},
		domain.RefundRequest{OrderID: "ord_6Tb1Xk8Fq3Wm9Zs2Lp5V", Amount: &amount, Reason: "event cancelled"}, "rfd_4Tg8Yh0Uj2Ik4Ol6Pz8X", now)
	if err != nil {
		t.Fatal(err)
	}
	partial.Succeeded("re_3PqL8e2eZvKYlo2C0uR7dW1u", now)
	msgs = append(msgs, partial.SucceededMessage(amount, amount))
	if len(msgs) != 8 {
		t.Fatalf("%d messages, want one per outcome: %+v", len(msgs), msgs)
	}
	produced := make([]brokertest.Produced, len(msgs))
	for i, m := range msgs {
		produced[i] = brokertest.Produced{Topic: m.Topic, Type: m.Type, Data: m.Data}
	}
	brokertest.LoadContracts(t, events.Files).Check(t, produced...)
}

// paidCheckout is c paid in full.
func paidCheckout(c *domain.Checkout, amount int64, now time.Time) *domain.Checkout {
	c.State, c.AmountPaid, c.PaidAt, c.PaymentIntent = domain.StatePaid, &amount, &now, "pi_3PqL8e2eZvKYlo2C1xT9mB4R"
	return c
}
