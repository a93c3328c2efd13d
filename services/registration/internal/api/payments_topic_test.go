package api_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestAPaymentFoundOnAnotherTopicConfirmsNothing: only checkout may write checkout.payments.v1;
// a payment.succeeded found on any other topic, which other principals may write, is poison
// (dead-lettered, visible) and confirms no order. The same message from checkout's topic does.
func TestAPaymentFoundOnAnotherTopicConfirmsNothing(t *testing.T) {
	env := start(t, regtest.Options{})
	order := env.Do(t, "POST", "/internal/holds", holdBody("forged-1", time.Now().Add(time.Hour), holdReg("Ana")), env.Browser(t, orgA)).Body["orderId"].(string)
	value, _ := json.Marshal(map[string]any{"orderId": order, "sessionId": "cs_1", "paymentRef": "pi_1", "amount": 6500, "currency": "EUR"})
	payment := func(topic string) broker.Message {
		return broker.Message{Topic: topic, Key: order, Value: value, Headers: map[string]string{
			broker.HeaderID: "pay-" + topic, broker.HeaderType: domain.EventPaymentSucceeded,
		}}
	}
	h := events.Handler(env.Service, testkit.Logger(t))

	for _, topic := range []string{domain.OrdersTopic, domain.PlacesTopic, "checkout.payments.v1.dead-letter", "registration.replays"} {
		if err := h(t.Context(), payment(topic)); !broker.IsPoison(err) {
			t.Fatalf("a payment on %s: %v, want poison", topic, err)
		}
		if s := orderStatus(t, env, order); s != "PENDING" {
			t.Fatalf("a payment on %s left the order %s", topic, s)
		}
	}
	if err := h(t.Context(), payment(domain.PaymentsTopic)); err != nil {
		t.Fatal(err)
	}
	if s := orderStatus(t, env, order); s != "COMPLETED" {
		t.Fatalf("checkout's payment left the order %s", s)
	}
}
