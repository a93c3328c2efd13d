package api_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// publishOrderEventKeyed publishes an order event as publishOrderEvent does, under key: the
// events published under one key are read in order from one partition.
func publishOrderEventKeyed(t *testing.T, env *checkouttest.Env, key, id, typ string, data map[string]any) {
	t.Helper()
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	value, _ := json.Marshal(data)
	if err := w.Publish(t.Context(), broker.Message{
		Topic: domain.OrdersTopic, Key: key, Value: value,
		Headers: map[string]string{broker.HeaderID: id, broker.HeaderType: typ, broker.HeaderSource: "podium/registration", broker.HeaderSpecVersion: "1.0"},
	}); err != nil {
		t.Fatal(err)
	}
}

// refundedMessage waits for the payment.refunded of an order on the payments topic (read by
// events, from the start) and returns its refund id; messages of other types are passed.
func refundedMessage(t *testing.T, events <-chan broker.Message, orderID string) string {
	t.Helper()
	for {
		m := next(t, events)
		if m.Key != orderID || m.Headers[broker.HeaderType] != domain.EventPaymentRefunded {
			continue
		}
		var r domain.PaymentRefunded
		if err := json.Unmarshal(m.Value, &r); err != nil {
			t.Fatal(err)
		}
		return r.RefundID
	}
}

// TestARefundStripeRefusesForGoodHoldsNoOrderEventBack: Stripe answers 400
// charge_already_refunded to the refund of one unfulfillable order, and lists no refund of the
// payment; another order's order.completed, behind it in the same partition, is applied at once
// (its checkout COMPLETED), while the first checkout ends REFUND_FAILED with Stripe's code and
// message, counted once and asked of Stripe once. Stripe gives that 400 again to its
// idempotency key for a day, so an operator's retry, once the cause is fixed in Stripe, has the
// refund worker read the payment's refunds and ask with a key of its own: the refund is made,
// and one payment.refunded published.
func TestARefundStripeRefusesForGoodHoldsNoOrderEventBack(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	refused, kept := opened(t, env, ""), opened(t, env, "")
	refused.PaymentIntent = "pi_refused"
	for _, s := range []checkouttest.StripeSession{refused, kept} {
		wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
		if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded {
			t.Fatalf("payment message %v", m.Headers)
		}
	}
	env.Stripe.RefuseRefunds("pi_refused", 400, "invalid_request_error", "charge_already_refunded")
	counted := checkouttest.Count(t, "checkout.refunds.failed", "code", "charge_already_refunded")

	publishOrderEventKeyed(t, env, refused.OrderID, "msg_unfulfillable", domain.EventOrderUnfulfillable,
		map[string]any{"orderId": refused.OrderID, "reason": "NO_PLACE_LEFT", "paymentRef": "pi_refused"})
	publishOrderEventKeyed(t, env, refused.OrderID, "msg_completed", domain.EventOrderCompleted, map[string]any{"orderId": kept.OrderID})
	eventually(t, env, kept.CheckoutID, "COMPLETED")
	eventually(t, env, refused.CheckoutID, "REFUND_FAILED")

	r := refundOf(t, env, refused.CheckoutID)
	if r.code != "charge_already_refunded" || !strings.Contains(r.message, "Refused for the test: charge_already_refunded") ||
		!strings.Contains(r.message, "HTTP 400") || r.failedAt == nil || r.next != nil || r.attempts != 1 {
		t.Fatalf("refused refund %+v", r)
	}
	if n := checkouttest.Count(t, "checkout.refunds.failed", "code", "charge_already_refunded") - counted; n != 1 {
		t.Fatalf("counted %d refused refunds, want 1", n)
	}
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 {
		t.Fatalf("%d refund calls: a refusal for good is asked once", n)
	}
	quiet(t, env, events, refused.OrderID) // and refunds nothing

	env.Stripe.AllowRefunds("pi_refused")
	if c, err := env.Service.RetryRefund(t.Context(), refused.CheckoutID); err != nil || c.State != domain.StateRefundPending {
		t.Fatalf("operator retry: %+v %v", c, err)
	}
	eventually(t, env, refused.CheckoutID, "REFUNDED_NO_PLACE")
	refundKeys(t, env, map[string]int{"podium-refund-" + refused.OrderID: 1, "podium-refund-" + refused.OrderID + "-2": 1})
	if id := refundedMessage(t, events, refused.OrderID); !strings.HasPrefix(id, "re_") {
		t.Fatalf("payment.refunded names refund %q", id)
	}
	quiet(t, env, events, refused.OrderID)
}
