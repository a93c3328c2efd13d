package api_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestLatePaymentWithItsPromocodeUsedUpIsRefunded: a one-use code's hold lapses and gives its
// use back, and another buyer takes it; the first buyer then pays anyway (its Stripe session
// outlives the hold). The use is not taken twice: the payment is refunded in full through
// Stripe by the refund worker (idempotency key podium-refund-<orderId>), the checkout ends REFUNDED_NO_PROMOCODE and
// registration is told payment.refunded, never payment.succeeded; the code counts the other
// buyer's use only. A redelivery of the webhook refunds nothing more.
func TestLatePaymentWithItsPromocodeUsedUpIsRefunded(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	late := opened(t, env, "ONCE")
	env.Clock.Advance(10*time.Minute + time.Second)
	opened(t, env, "ONCE")

	payload := stripeEvent(t, "checkout.session.completed", late, true)
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "applied")
	eventually(t, env, late.CheckoutID, "REFUNDED_NO_PROMOCODE")
	if s, p := state(t, env, late.CheckoutID); s != "REFUNDED_NO_PROMOCODE" || p != "RELEASED" {
		t.Fatalf("the late checkout is %s with its promocode %s; want REFUNDED_NO_PROMOCODE, RELEASED", s, p)
	}
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 {
		t.Fatalf("%d refunds, want 1", n)
	}
	f := env.Stripe.Last(checkouttest.RouteRefunds)
	if f.Get("payment_intent") != late.PaymentIntent || f.Get("metadata[orderId]") != late.OrderID || f.Get("metadata[reason]") != "PROMOCODE_USED_UP" ||
		env.Stripe.IdempotencyKeys()["podium-refund-"+late.OrderID] != 1 {
		t.Fatalf("refund %v, keys %v", f, env.Stripe.IdempotencyKeys())
	}
	if n := uses(t, env, "ONCE"); n != 1 {
		t.Fatalf("%d uses of the one-use code, want the other buyer's 1", n)
	}
	m := next(t, events)
	var refunded map[string]any
	_ = json.Unmarshal(m.Value, &refunded)
	if m.Key != late.OrderID || m.Headers[broker.HeaderType] != domain.EventPaymentRefunded || refunded["refundId"] == "" ||
		refunded["amount"] != 5875.0 || refunded["currency"] != "EUR" {
		t.Fatalf("payment message %v %s, want payment.refunded of the late order", m.Headers, m.Value)
	}
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "duplicate")
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 {
		t.Fatalf("%d refunds after a redelivery", n)
	}
	quiet(t, env, events, late.OrderID)
}
