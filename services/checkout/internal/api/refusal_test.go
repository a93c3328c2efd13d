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
	if c, err := env.Service.RetryRefund(t.Context(), refused.CheckoutID, ""); err != nil || c.State != domain.StateRefundPending {
		t.Fatalf("operator retry: %+v %v", c, err)
	}
	eventually(t, env, refused.CheckoutID, "REFUNDED_NO_PLACE")
	refundKeys(t, env, map[string]int{"podium-refund-" + refused.OrderID: 1, "podium-refund-" + refused.OrderID + "-2": 1})
	if id := refundedMessage(t, events, refused.OrderID); !strings.HasPrefix(id, "re_") {
		t.Fatalf("payment.refunded names refund %q", id)
	}
	quiet(t, env, events, refused.OrderID)
}

// TestARefundWithNoPaymentWaitsForAnOperator: an unfulfillable order whose checkout records no
// payment intent (and whose event names none) can never be refunded as it is: the message is
// done at once (nothing retried in front of its partition), the checkout REFUND_FAILED with
// no_payment_to_refund, counted once however often the news comes; so is a late payment whose
// promocode is used up and whose webhook names no payment intent (answered 200).
func TestARefundWithNoPaymentWaitsForAnOperator(t *testing.T) {
	env := start(t, checkouttest.Options{})
	counted := checkouttest.Count(t, "checkout.refunds.failed", "code", domain.RefundCodeNoPayment)
	s := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	if _, err := env.Pool.Exec(t.Context(), `UPDATE checkouts SET payment_intent = NULL WHERE id = $1`, s.CheckoutID); err != nil {
		t.Fatal(err)
	}
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: s.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: s.SessionID}
	for _, id := range []string{"msg_no_payment", "msg_no_payment", "msg_no_payment_again"} {
		if err := env.Service.HandleOrderEvent(t.Context(), id, e); err != nil {
			t.Fatalf("the order event %s: %v, want it done", id, err)
		}
	}
	if r := refundOf(t, env, s.CheckoutID); r.state != "REFUND_FAILED" || r.code != domain.RefundCodeNoPayment || r.failedAt == nil || r.next != nil {
		t.Fatalf("a refund with no payment: %+v", r)
	}

	late := opened(t, env, "ONCE")
	env.Clock.Advance(10*time.Minute + time.Second)
	opened(t, env, "ONCE")
	var payload map[string]any
	if err := json.Unmarshal(stripeEvent(t, "checkout.session.completed", late, true), &payload); err != nil {
		t.Fatal(err)
	}
	payload["data"].(map[string]any)["object"].(map[string]any)["payment_intent"] = nil
	raw, _ := json.Marshal(payload)
	if _, err := env.Pool.Exec(t.Context(), `UPDATE checkouts SET payment_intent = NULL WHERE id = $1`, late.CheckoutID); err != nil {
		t.Fatal(err)
	}
	wantWebhook(t, env.SignedWebhook(t, raw, time.Now()), "applied")
	if r := refundOf(t, env, late.CheckoutID); r.state != "REFUND_FAILED" || r.code != domain.RefundCodeNoPayment {
		t.Fatalf("a late payment with no payment intent: %+v", r)
	}
	if n := checkouttest.Count(t, "checkout.refunds.failed", "code", domain.RefundCodeNoPayment) - counted; n != 2 || env.Stripe.Hits(checkouttest.RouteRefunds) != 0 {
		t.Fatalf("counted %d refunds with no payment, want 2; %d refund calls", n, env.Stripe.Hits(checkouttest.RouteRefunds))
	}
	listed, err := env.Service.FailedRefunds(t.Context())
	if err != nil || len(listed) != 2 {
		t.Fatalf("failed refunds listed: %d %v, want both", len(listed), err)
	}
}
