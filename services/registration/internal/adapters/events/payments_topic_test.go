package events_test

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
	env := regtest.Start(t, regtest.Options{})
	env.Catalog.Put(regtest.Event("evt_topic", "org_topic"))
	hold := env.Do(t, "POST", "/internal/holds", map[string]any{
		"holdId": "h-topic", "eventId": "evt_topic", "expiresAt": env.Clock.Now().Add(time.Hour).UTC().Format(time.RFC3339), "currency": "EUR", "amount": 6500,
		"purchaserEmail": "buyer@example.com", "purchaserName": "Buyer", "registrations": []any{map[string]any{
			"categoryId": "cat_rx", "teamName": "Team Ana", "customFields": []any{map[string]any{"fieldId": "fld_size", "value": "S"}},
			"athletes": []any{map[string]any{"fullname": "Ana", "idNumber": "ID-1", "email": "ana@example.com", "phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-01-01"}},
		}},
	}, env.Browser(t, "org_topic"))
	order, _ := hold.Body["orderId"].(string)
	if hold.Status != 201 || order == "" {
		t.Fatalf("hold: %d %s", hold.Status, hold.Raw)
	}
	value, _ := json.Marshal(map[string]any{"orderId": order, "sessionId": "cs_1", "paymentRef": "pi_1", "amount": 6500, "currency": "EUR"})
	payment := func(topic string) broker.Message {
		return broker.Message{Topic: topic, Key: order, Value: value, Headers: map[string]string{
			broker.HeaderID: "pay-" + topic, broker.HeaderType: domain.EventPaymentSucceeded,
		}}
	}
	status := func() string {
		var s string
		if err := env.Pool.QueryRow(t.Context(), `SELECT status FROM orders WHERE id = $1`, order).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	h := events.Handler(env.Service, testkit.Logger(t))

	for _, topic := range []string{domain.OrdersTopic, domain.PlacesTopic, broker.DeadLetterTopic("registration", domain.PaymentsTopic), broker.ReplayTopic("registration")} {
		if err := h(t.Context(), payment(topic)); !broker.IsPoison(err) {
			t.Fatalf("a payment on %s: %v, want poison", topic, err)
		}
		if s := status(); s != "PENDING" {
			t.Fatalf("a payment on %s left the order %s", topic, s)
		}
	}
	if err := h(t.Context(), payment(domain.PaymentsTopic)); err != nil {
		t.Fatal(err)
	}
	if s := status(); s != "COMPLETED" {
		t.Fatalf("checkout's payment left the order %s", s)
	}
}
