package http_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
	"github.com/podiumhq/podium/services/checkout/internal/trigger"
)

// opened creates a session and returns its checkout's ids.
func opened(t *testing.T, env *checkouttest.Env, promocode string) trigger.Session {
	t.Helper()
	b := checkouttest.Purchase()
	if promocode != "" {
		b["promocode"] = promocode
	}
	r := session(t, env, b)
	if r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	orderID := r.Body["orderId"].(string)
	return trigger.Session{
		CheckoutID: checkoutOfOrder(t, env, orderID), SessionID: r.Body["sessionId"].(string), OrderID: orderID,
		EventID: checkouttest.EventID, OrganizerID: checkouttest.OrgID, PaymentIntent: "pi_test_1", Currency: "EUR", Amount: 5875,
	}
}

// stripeEvent builds a webhook payload as Stripe sends it, with its own event id.
func stripeEvent(t *testing.T, typ string, s trigger.Session, paid bool) []byte {
	t.Helper()
	raw, err := trigger.Event(typ, s, paid, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func wantWebhook(t *testing.T, r checkouttest.Response, result string) {
	t.Helper()
	if r.Status != http.StatusOK || r.Body["received"] != true || r.Body["result"] != result {
		t.Fatalf("webhook: %d %s, want 200 %s", r.Status, r.Raw, result)
	}
}

func TestWebhookSignatures(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := opened(t, env, "")
	payload := stripeEvent(t, "checkout.session.completed", s, true)
	forged := strings.Replace(string(payload), `"amount_total":5875`, `"amount_total":1`, 1)
	for name, r := range map[string]checkouttest.Response{
		"no signature":   env.Webhook(t, payload, ""),
		"wrong secret":   env.Webhook(t, payload, signWith(payload, "whsec_someone_else", time.Now())),
		"tampered body":  env.Webhook(t, []byte(forged), signWith(payload, checkouttest.WebhookSecret, time.Now())),
		"stale (301 s)":  env.SignedWebhook(t, payload, time.Now().Add(-301*time.Second)),
		"garbage header": env.Webhook(t, payload, "t=abc,v1=zz"),
	} {
		if r.Status != http.StatusBadRequest || r.Body["message"] != "the Stripe-Signature header is missing, invalid or too old" {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	if st, _ := state(t, env, s.CheckoutID); st != "OPEN" || count(t, env, `SELECT count(*) FROM inbox`) != 0 || count(t, env, `SELECT count(*) FROM outbox`) != 0 {
		t.Fatalf("refused webhooks changed something: %s", st)
	}
	// 299 s old is within the tolerance.
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now().Add(-299*time.Second)), "applied")
	// The route takes the webhook's service identity only.
	tok := env.Token(t, identity.Principal{OrganizerID: checkouttest.OrgID, KeyID: checkouttest.KeyID, KeyType: identity.Publishable})
	r := env.Do(t, http.MethodPost, "/webhooks/stripe", json.RawMessage(payload), map[string]string{identity.Header: tok, "Stripe-Signature": signWith(payload, checkouttest.WebhookSecret, time.Now())})
	wantError(t, r, 403, "this route does not accept publishable credentials")
	wantError(t, env.Do(t, http.MethodPost, "/webhooks/stripe", json.RawMessage(payload), nil), 401, "this service is reached through the gateway only")
}

func signWith(payload []byte, secret string, at time.Time) string {
	return stripeSignature(payload, secret, at)
}

func TestPaymentSucceededOnceAndPublished(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	s := opened(t, env, "")
	payload := stripeEvent(t, "checkout.session.completed", s, true)
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "applied")
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "duplicate")
	if st, _ := state(t, env, s.CheckoutID); st != "PAID" {
		t.Fatalf("checkout %s", st)
	}
	m := next(t, events)
	var data map[string]any
	_ = json.Unmarshal(m.Value, &data)
	if m.Key != s.OrderID || m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded || m.Headers[broker.HeaderSource] != domain.EventSource ||
		m.Headers[broker.HeaderID] == "" || data["orderId"] != s.OrderID || data["sessionId"] != s.SessionID || data["paymentRef"] != "pi_test_1" ||
		data["amount"] != 5875.0 || data["currency"] != "EUR" || data["paidAt"] == nil || len(data) != 6 {
		t.Fatalf("message %s %v %s", m.Key, m.Headers, m.Value)
	}
	// A second delivery (another Stripe event id) of the same outcome changes nothing either.
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_succeeded", s, true), time.Now()), "applied")
	quiet(t, events)
}

func TestWebhooksInAnyOrder(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)

	// Expired, then paid after all: released first, then confirmed (registration re-takes a place).
	late := opened(t, env, "ONCE")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.expired", late, false), time.Now()), "applied")
	if st, p := state(t, env, late.CheckoutID); st != "EXPIRED" || p != "RELEASED" || uses(t, env, "ONCE") != 0 {
		t.Fatalf("after expiry: %s %s", st, p)
	}
	m := next(t, events)
	if m.Headers[broker.HeaderType] != domain.EventPaymentFailed || !strings.Contains(string(m.Value), `"reason":"EXPIRED"`) {
		t.Fatalf("expiry message %v %s", m.Headers, m.Value)
	}
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", late, true), time.Now()), "applied")
	if st, p := state(t, env, late.CheckoutID); st != "PAID" || p != "RESERVED" || uses(t, env, "ONCE") != 1 {
		t.Fatalf("late payment: %s %s", st, p)
	}
	if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded || m.Key != late.OrderID {
		t.Fatalf("late payment message %v", m.Headers)
	}

	// Paid, then expired: the expiry changes nothing.
	paid := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", paid, true), time.Now()), "applied")
	next(t, events)
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.expired", paid, false), time.Now()), "applied")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_failed", paid, false), time.Now()), "applied")
	if st, _ := state(t, env, paid.CheckoutID); st != "PAID" {
		t.Fatalf("paid then expired: %s", st)
	}

	// A delayed method: completed unpaid records only; its failure releases.
	slow := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", slow, false), time.Now()), "applied")
	if st, _ := state(t, env, slow.CheckoutID); st != "PROCESSING" {
		t.Fatalf("completed unpaid: %s", st)
	}
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_failed", slow, false), time.Now()), "applied")
	if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentFailed || !strings.Contains(string(m.Value), `"reason":"FAILED"`) {
		t.Fatalf("async failure message %v %s", m.Headers, m.Value)
	}

	// The success of a delayed method arriving before its "completed": paid; completed then changes nothing.
	early := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_succeeded", early, true), time.Now()), "applied")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", early, false), time.Now()), "applied")
	if st, _ := state(t, env, early.CheckoutID); st != "PAID" {
		t.Fatalf("async success before completed: %s", st)
	}
	next(t, events)
	quiet(t, events)
}

func TestWebhookForAnUnknownSessionIsAcknowledged(t *testing.T) {
	env := start(t, checkouttest.Options{})
	unknown := trigger.Session{SessionID: "cs_test_nobody", CheckoutID: "chk_nobody"}
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", unknown, true), time.Now()), "unknown-session")
	other, _ := json.Marshal(map[string]any{"id": "evt_other", "object": "event", "type": "payment_intent.created", "data": map[string]any{"object": map[string]any{"id": "pi_1"}}})
	wantWebhook(t, env.SignedWebhook(t, other, time.Now()), "ignored")
	if count(t, env, `SELECT count(*) FROM outbox`) != 0 {
		t.Fatal("an unknown session produced an event")
	}
}
