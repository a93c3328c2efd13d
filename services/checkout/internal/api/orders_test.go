package api_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// publishOrderEvent publishes an event of registration.orders.v1 as registration's outbox does.
func publishOrderEvent(t *testing.T, env *checkouttest.Env, id, typ string, data map[string]any) {
	t.Helper()
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	value, _ := json.Marshal(data)
	if err := w.Publish(t.Context(), broker.Message{
		Topic: domain.OrdersTopic, Key: data["orderId"].(string), Value: value,
		Headers: map[string]string{broker.HeaderID: id, broker.HeaderType: typ, broker.HeaderSource: "podium/registration", broker.HeaderSpecVersion: "1.0"},
	}); err != nil {
		t.Fatal(err)
	}
}

// eventually waits for a checkout's state.
func eventually(t *testing.T, env *checkouttest.Env, checkoutID, want string) {
	t.Helper()
	testkit.Eventually(t, 30*time.Second, func() string {
		if s, _ := state(t, env, checkoutID); s != want {
			return fmt.Sprintf("checkout %s is %s, want %s", checkoutID, s, want)
		}
		return ""
	})
}

func TestUnfulfillableOrderIsRefundedOnce(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	s := opened(t, env, "ONCE")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded {
		t.Fatalf("payment message %v", m.Headers)
	}
	data := map[string]any{"orderId": s.OrderID, "reason": "NO_PLACE_LEFT", "paymentRef": "pi_test_1"}
	publishOrderEvent(t, env, "msg_unfulfillable_1", domain.EventOrderUnfulfillable, data)
	eventually(t, env, s.CheckoutID, "REFUNDED_NO_PLACE")
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 {
		t.Fatalf("%d refunds", n)
	}
	f := env.Stripe.Last(checkouttest.RouteRefunds)
	if f.Get("payment_intent") != "pi_test_1" || f.Get("metadata[orderId]") != s.OrderID || env.Stripe.IdempotencyKeys()["podium-refund-"+s.OrderID] != 1 {
		t.Fatalf("refund %v, keys %v", f, env.Stripe.IdempotencyKeys())
	}
	var refundID string
	if err := env.Pool.QueryRow(t.Context(), `SELECT refund_id FROM checkouts WHERE id = $1`, s.CheckoutID).Scan(&refundID); err != nil || refundID == "" {
		t.Fatalf("refund id %q %v", refundID, err)
	}
	if uses(t, env, "ONCE") != 0 {
		t.Fatal("a refunded order kept its promocode use")
	}
	// Registration is told, so the order reads REFUNDED.
	m := next(t, events)
	var refunded map[string]any
	_ = json.Unmarshal(m.Value, &refunded)
	if m.Key != s.OrderID || m.Headers[broker.HeaderType] != domain.EventPaymentRefunded || refunded["orderId"] != s.OrderID ||
		refunded["refundId"] != refundID || refunded["amount"] != 5875.0 || refunded["currency"] != "EUR" || refunded["refundedAt"] == nil {
		t.Fatalf("refund message %v %s", m.Headers, m.Value)
	}
	// A redelivery, and the same news in another message, refund nothing more.
	publishOrderEvent(t, env, "msg_unfulfillable_1", domain.EventOrderUnfulfillable, data)
	publishOrderEvent(t, env, "msg_unfulfillable_2", domain.EventOrderUnfulfillable, data)
	publishOrderEvent(t, env, "msg_organizer_created", domain.EventOrderCompleted, map[string]any{"orderId": "ord_organizer_created"})
	// One order's messages are handled in order: the second one recorded, the redelivery
	// before it was handled too. An order checkout did not create is recorded and ignored.
	waitProcessed(t, env, "msg_unfulfillable_2")
	waitProcessed(t, env, "msg_organizer_created")
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 {
		t.Fatalf("%d refunds after redeliveries", n)
	}
	quiet(t, env, events, s.OrderID)
}

func TestOrderCompletedAndReleased(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	paid := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", paid, true), time.Now()), "applied")
	publishOrderEvent(t, env, "msg_completed", domain.EventOrderCompleted, map[string]any{"orderId": paid.OrderID, "eventId": checkouttest.EventID, "organizerId": checkouttest.OrgID, "completedAt": time.Now()})
	eventually(t, env, paid.CheckoutID, "COMPLETED")

	lapsed := opened(t, env, "ONCE")
	publishOrderEvent(t, env, "msg_released", domain.EventOrderReleased, map[string]any{"orderId": lapsed.OrderID, "reason": "EXPIRED", "releasedAt": time.Now()})
	eventually(t, env, lapsed.CheckoutID, "RELEASED")
	if uses(t, env, "ONCE") != 0 {
		t.Fatal("a released order kept its promocode use")
	}
	// A completed order is not released by a stale release.
	publishOrderEvent(t, env, "msg_stale_release", domain.EventOrderReleased, map[string]any{"orderId": paid.OrderID, "reason": "EXPIRED"})
	waitProcessed(t, env, "msg_stale_release")
	if s, _ := state(t, env, paid.CheckoutID); s != "COMPLETED" {
		t.Fatalf("completed order after a stale release: %s", s)
	}
}

// waitProcessed waits until the order-events consumer recorded a message.
func waitProcessed(t *testing.T, env *checkouttest.Env, id string) {
	t.Helper()
	testkit.Eventually(t, 30*time.Second, func() string {
		if count(t, env, `SELECT count(*) FROM inbox WHERE consumer = 'checkout-orders' AND message_id = $1`, id) != 1 {
			return "message " + id + " not processed"
		}
		return ""
	})
}
