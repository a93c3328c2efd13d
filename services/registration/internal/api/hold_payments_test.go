package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// consume reads topic from the start until match accepts a message.
func consume(t *testing.T, env *regtest.Env, topic string, match func(broker.Message) bool) broker.Message {
	t.Helper()
	got := make(chan broker.Message, 100)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- broker.Consume(ctx, broker.ConsumerConfig{Cluster: broker.Cluster{Brokers: env.Brokers}, Group: fmt.Sprint("test-", rand.Int()), Topics: []string{topic}, Log: testkit.Logger(t)},
			func(_ context.Context, m broker.Message) error {
				if match(m) {
					got <- m
				}
				return nil
			})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("consume: %v", err)
		}
	}()
	select {
	case m := <-got:
		return m
	case <-time.After(30 * time.Second):
		t.Fatalf("no matching message on %s within 30s", topic)
	}
	return broker.Message{}
}

func TestPlacesEventsAreRelayed(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	reg := create(t, env, createBody("Ana"))
	create(t, env, createBody("Bea"))
	env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), nil, env.Secret(t, orgA))
	m := consume(t, env, domain.PlacesTopic, func(m broker.Message) bool {
		var p domain.PlacesChanged
		_ = json.Unmarshal(m.Value, &p)
		return len(p.Categories) == 1 && p.Categories[0].Version == 3
	})
	var p map[string]any
	_ = json.Unmarshal(m.Value, &p)
	cats, _ := p["categories"].([]any)
	if m.Key != evtA || m.Headers[broker.HeaderType] != domain.EventPlacesChanged || m.Headers[broker.HeaderSource] != domain.EventSource ||
		p["eventId"] != evtA || p["occurredAt"] == nil || len(cats) != 1 {
		t.Fatalf("places event %s %v %s", m.Key, m.Headers, m.Value)
	}
	if c := cats[0].(map[string]any); c["categoryId"] != "cat_rx" || c["confirmed"].(float64) != 1 || c["held"].(float64) != 0 {
		t.Fatalf("places of the category %s", m.Value)
	}
}

func TestPaymentsConsumer(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	env.StartPayments(t)
	tok := env.Browser(t, orgA)
	o1 := env.Do(t, "POST", "/internal/holds", holdBody("p-1", time.Now().Add(time.Hour), holdReg("Ana")), tok).Body["orderId"].(string)
	o2 := env.Do(t, "POST", "/internal/holds", holdBody("p-2", time.Now().Add(time.Hour), holdReg("Bea")), tok).Body["orderId"].(string)
	free := holdBody("p-3", time.Now().Add(time.Hour), holdReg("Cid"))
	free["amount"] = 0
	o3 := env.Do(t, "POST", "/internal/holds", free, tok).Body["orderId"].(string)
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	msg := func(id, typ, order string, data map[string]any) broker.Message {
		data["orderId"] = order
		v, _ := json.Marshal(data)
		return broker.Message{Topic: domain.PaymentsTopic, Key: order, Value: v, Headers: map[string]string{broker.HeaderID: id, broker.HeaderType: typ}}
	}
	succeeded := msg("m1", domain.EventPaymentSucceeded, o1, map[string]any{"sessionId": "cs_1", "paymentRef": "pi_1", "amount": 6500, "currency": "EUR", "paidAt": time.Now()})
	failed := msg("m2", domain.EventPaymentFailed, o2, map[string]any{"sessionId": "cs_2", "reason": "EXPIRED"})
	// An order with nothing to pay is confirmed by the same event, of amount 0.
	nothingToPay := msg("m5", domain.EventPaymentSucceeded, o3, map[string]any{"sessionId": "free_1", "paymentRef": "free", "amount": 0, "currency": "EUR", "paidAt": time.Now()})
	// Duplicates, and a failure or a refund arriving after the success for the same order, are
	// harmless: checkout refunds only orders that found no place.
	lateFail := msg("m3", domain.EventPaymentFailed, o1, map[string]any{"sessionId": "cs_1", "reason": "FAILED"})
	strayRefund := msg("m4", domain.EventPaymentRefunded, o1, map[string]any{"sessionId": "cs_1", "refundId": "re_1", "amount": 6500, "currency": "EUR"})
	if err := w.Publish(t.Context(), succeeded, succeeded, failed, lateFail, strayRefund, failed, nothingToPay); err != nil {
		t.Fatal(err)
	}
	// Every message is processed once its id is in the inbox (duplicates change nothing).
	testkit.Eventually(t, 30*time.Second, func() string {
		var n int
		_ = env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM inbox WHERE consumer = 'registration-payments'`).Scan(&n)
		return unless(n == 5, fmt.Sprintf("%d of 5 payment messages processed", n))
	})
	if s1, s2, s3 := orderStatus(t, env, o1), orderStatus(t, env, o2), orderStatus(t, env, o3); s1 != "COMPLETED" || s2 != "CANCELLED" || s3 != "COMPLETED" {
		t.Fatalf("orders %s %s %s", s1, s2, s3)
	}
	var ref string
	var paid int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT payment_ref, amount_paid FROM orders WHERE id = $1`, o3).Scan(&ref, &paid); err != nil || ref != "free" || paid != 0 {
		t.Fatalf("free order paid %d by %q (%v)", paid, ref, err)
	}
	if c, h := places(t, env, "cat_rx"); c != 2 || h != 0 {
		t.Fatalf("places %d/%d", c, h)
	}
}

// TestLatePaymentThroughTheConsumer: a payment that arrives after its hold expired and finds
// no place left leaves the order FAILED and publishes the unfulfillable event.
func TestLatePaymentThroughTheConsumer(t *testing.T) {
	env := start(t, regtest.Options{Kafka: true})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(1)
	env.Catalog.Put(e)
	env.StartPayments(t)
	tok := env.Browser(t, orgA)
	order := env.Do(t, "POST", "/internal/holds", holdBody("late-1", time.Now().Add(time.Minute), holdReg("Ana")), tok).Body["orderId"].(string)
	env.Clock.Advance(2 * time.Minute)
	if n, _ := env.Service.SweepExpired(t.Context(), 10); n != 1 {
		t.Fatalf("swept %d", n)
	}
	create(t, env, createBody("Bea")) // the last place
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	v, _ := json.Marshal(map[string]any{"orderId": order, "sessionId": "cs_1", "paymentRef": "pi_late", "amount": 6500, "currency": "EUR"})
	if err := w.Publish(t.Context(), broker.Message{Topic: domain.PaymentsTopic, Key: order, Value: v,
		Headers: map[string]string{broker.HeaderID: "late-msg", broker.HeaderType: domain.EventPaymentSucceeded}}); err != nil {
		t.Fatal(err)
	}
	m := consume(t, env, domain.OrdersTopic, func(m broker.Message) bool {
		return m.Headers[broker.HeaderType] == domain.EventOrderUnfulfilled
	})
	var data map[string]any
	_ = json.Unmarshal(m.Value, &data)
	if m.Key != order || data["reason"] != "NO_PLACE_LEFT" || data["paymentRef"] != "pi_late" || orderStatus(t, env, order) != "FAILED" {
		t.Fatalf("unfulfillable event %s %s, order %s", m.Key, m.Value, orderStatus(t, env, order))
	}
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 0 {
		t.Fatalf("ledger %d/%d", c, h)
	}

	// Checkout returned the payment: the order reads REFUNDED, its tickets stay cancelled and
	// no place moves; a redelivery changes nothing.
	v, _ = json.Marshal(map[string]any{"orderId": order, "sessionId": "cs_1", "refundId": "re_1", "amount": 6500, "currency": "EUR"})
	refunded := broker.Message{Topic: domain.PaymentsTopic, Key: order, Value: v,
		Headers: map[string]string{broker.HeaderID: "refund-msg", broker.HeaderType: domain.EventPaymentRefunded}}
	if err := w.Publish(t.Context(), refunded, refunded); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 30*time.Second, func() string { return unless(orderStatus(t, env, order) == "REFUNDED", "the order is not REFUNDED") })
	var ticketStatus, ticketOrderStatus string
	if err := env.Pool.QueryRow(t.Context(), `SELECT DISTINCT status, order_status FROM tickets WHERE order_id = $1`, order).
		Scan(&ticketStatus, &ticketOrderStatus); err != nil || ticketStatus != "CANCELLED" || ticketOrderStatus != "REFUNDED" {
		t.Fatalf("order %s, tickets %s on %s (%v)", orderStatus(t, env, order), ticketStatus, ticketOrderStatus, err)
	}
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 0 {
		t.Fatalf("ledger after the refund %d/%d", c, h)
	}
}

// TestRefundOfAnUnpaidHoldReleasesIt: a payment checkout returns before registration confirmed
// its order (a late payment whose limited promocode had no use left) releases the still
// PENDING order (reason FAILED, its places freed, order.released written) and marks it
// REFUNDED; a redelivery changes nothing.
func TestRefundOfAnUnpaidHoldReleasesIt(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	order := env.Do(t, "POST", "/internal/holds", holdBody("refund-1", env.Clock.Now().Add(time.Hour), holdReg("Ana")), tok).Body["orderId"].(string)
	for range 2 {
		if err := env.Service.ApplyPayment(t.Context(), app.Payment{MessageID: "refund-msg", Type: domain.EventPaymentRefunded, OrderID: order}); err != nil {
			t.Fatal(err)
		}
	}
	var reason, ticketStatus string
	var released int
	if err := env.Pool.QueryRow(t.Context(), `SELECT o.release_reason, t.status,
		(SELECT count(*) FROM outbox WHERE key = o.id AND headers->>'ce_type' = $2)
		FROM orders o JOIN tickets t ON t.order_id = o.id WHERE o.id = $1`, order, domain.EventOrderReleased).Scan(&reason, &ticketStatus, &released); err != nil {
		t.Fatal(err)
	}
	if s := orderStatus(t, env, order); s != "REFUNDED" || reason != "FAILED" || ticketStatus != "CANCELLED" || released != 1 {
		t.Fatalf("order %s (reason %q), ticket %s, %d released events; want REFUNDED, FAILED, CANCELLED, 1", s, reason, ticketStatus, released)
	}
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 0 {
		t.Fatalf("places %d/%d after the refund, want none", c, h)
	}
}
