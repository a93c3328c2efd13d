package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// opened creates a session and returns its checkout's ids.
func opened(t *testing.T, env *checkouttest.Env, promocode string) checkouttest.StripeSession {
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
	return checkouttest.StripeSession{
		CheckoutID: checkoutOfOrder(t, env, orderID), SessionID: r.Body["sessionId"].(string), OrderID: orderID,
		EventID: checkouttest.EventID, OrganizerID: checkouttest.OrgID, PaymentIntent: "pi_test_1", Currency: "EUR", Amount: 5875,
	}
}

// stripeEvent builds a webhook payload as Stripe sends it, with its own event id.
func stripeEvent(t *testing.T, typ string, s checkouttest.StripeSession, paid bool) []byte {
	t.Helper()
	return checkouttest.StripeEvent(t, typ, s, paid, time.Now())
}

func wantWebhook(t *testing.T, r testkit.Response, result string) {
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
	for name, r := range map[string]testkit.Response{
		"no signature":   env.Webhook(t, payload, ""),
		"wrong secret":   env.Webhook(t, payload, signWith(payload, "whsec_someone_else", time.Now())),
		"tampered body":  env.Webhook(t, []byte(forged), signWith(payload, checkouttest.WebhookSecret, time.Now())),
		"stale (301 s)":  env.SignedWebhook(t, payload, time.Now().Add(-301*time.Second)),
		"garbage header": env.Webhook(t, payload, "t=abc,v1=zz"),
	} {
		if r.Status != http.StatusBadRequest || r.Body["code"] != "signature_invalid" ||
			!reflect.DeepEqual(r.Body["message"], []any{"Stripe-Signature header is missing, invalid or too old"}) {
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
		data["amount"] != 5875.0 || data["currency"] != "EUR" || data["paidAt"] == nil || data["livemode"] != true || len(data) != 7 {
		t.Fatalf("message %s %v %s", m.Key, m.Headers, m.Value)
	}
	// A second delivery (another Stripe event id) of the same outcome changes nothing either.
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_succeeded", s, true), time.Now()), "duplicate")
	quiet(t, env, events, s.OrderID)
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
	wantExpiredSession(t, env, m.Value, late)
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
	quiet(t, env, events, late.OrderID, paid.OrderID, slow.OrderID, early.OrderID)
}

// TestWebhookForAnUnknownCheckout: a webhook naming a checkout that is not known is answered
// 503 with Retry-After and the standard body while the event is recent, and nothing is
// recorded, so that Stripe's next delivery of it is handled again rather than taken for a
// duplicate; after the window (6 hours from the event's creation) it is acknowledged. A
// session that names no checkout (another system's) is acknowledged at once. Each is counted.
func TestWebhookForAnUnknownCheckout(t *testing.T) {
	env := start(t, checkouttest.Options{})
	retried := checkouttest.Count(t, "checkout.webhooks.unknown", "outcome", "retried")
	acknowledged := checkouttest.Count(t, "checkout.webhooks.unknown", "outcome", "acknowledged")
	unknown := checkouttest.StripeSession{SessionID: "cs_test_nobody", CheckoutID: "chk_nobody"}
	payload := checkouttest.StripeEvent(t, "checkout.session.completed", unknown, true, env.Clock.Now().Add(-5*time.Hour))
	for range 2 {
		r := env.SignedWebhook(t, payload, time.Now())
		if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || r.Body["statusCode"] != 503.0 ||
			r.Body["error"] != "Service Unavailable" || r.Body["requestId"] == nil || r.Body["message"] == nil {
			t.Fatalf("a recent event of an unknown checkout: %d %v %s, want 503 with Retry-After", r.Status, r.Header, r.Raw)
		}
	}
	if count(t, env, `SELECT count(*) FROM inbox`) != 0 {
		t.Fatal("an unknown checkout's event was recorded: Stripe's next delivery would be a duplicate")
	}
	old := checkouttest.StripeEvent(t, "checkout.session.completed", unknown, true, env.Clock.Now().Add(-6*time.Hour-time.Minute))
	wantWebhook(t, env.SignedWebhook(t, old, time.Now()), "unknown-session")
	foreign := checkouttest.StripeEvent(t, "checkout.session.completed", checkouttest.StripeSession{SessionID: "cs_test_foreign"}, true, env.Clock.Now())
	wantWebhook(t, env.SignedWebhook(t, foreign, time.Now()), "unknown-session")
	other, _ := json.Marshal(map[string]any{"id": "evt_other", "object": "event", "type": "payment_intent.created", "data": map[string]any{"object": map[string]any{"id": "pi_1"}}})
	wantWebhook(t, env.SignedWebhook(t, other, time.Now()), "ignored")
	if count(t, env, `SELECT count(*) FROM outbox`) != 0 {
		t.Fatal("an unknown session produced an event")
	}
	if r, a := checkouttest.Count(t, "checkout.webhooks.unknown", "outcome", "retried")-retried,
		checkouttest.Count(t, "checkout.webhooks.unknown", "outcome", "acknowledged")-acknowledged; r != 2 || a != 2 {
		t.Fatalf("counted %d retried and %d acknowledged, want 2 and 2", r, a)
	}
}

// TestWebhookThatOvertakesTheSessionAnswer: Stripe can deliver a session's payment before
// checkout has read Stripe's answer and recorded the session id. The checkout is already
// recorded (it is, before Stripe is asked), and found by the checkout id the session's
// metadata names: the payment is applied, and recording the session afterwards keeps it paid.
func TestWebhookThatOvertakesTheSessionAnswer(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	var overtaking testkit.Response
	env.Stripe.OnSessionCreated(func(form url.Values, sessionID string) {
		s := checkouttest.StripeSession{CheckoutID: form.Get("metadata[checkoutId]"), OrderID: form.Get("metadata[orderId]"), SessionID: sessionID,
			PaymentIntent: "pi_fast", Currency: "EUR", Amount: 5875}
		overtaking = env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now())
	})
	r := session(t, env, checkouttest.Purchase())
	if r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	wantWebhook(t, overtaking, "applied")
	id := checkoutOfOrder(t, env, r.Body["orderId"].(string))
	var sessionID string
	if err := env.Pool.QueryRow(t.Context(), `SELECT session_id FROM checkouts WHERE id = $1`, id).Scan(&sessionID); err != nil || sessionID != r.Body["sessionId"] {
		t.Fatalf("session id %q %v", sessionID, err)
	}
	if st, _ := state(t, env, id); st != "PAID" {
		t.Fatalf("checkout %s after the session was recorded, want PAID", st)
	}
	if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded {
		t.Fatalf("message %v", m.Headers)
	}
	quiet(t, env, events, r.Body["orderId"].(string))
}

// wantExpiredSession checks a payment.failed of an expiry names the organizer and carries the
// checkout session as organizers see it: what the checkout stored, times in UTC.
func wantExpiredSession(t *testing.T, env *checkouttest.Env, value []byte, s checkouttest.StripeSession) {
	t.Helper()
	var total int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT total FROM checkouts WHERE id = $1`, s.CheckoutID).Scan(&total); err != nil {
		t.Fatal(err)
	}
	var data struct {
		OrganizerID string         `json:"organizerId"`
		Livemode    bool           `json:"livemode"`
		OccurredAt  string         `json:"occurredAt"`
		Object      map[string]any `json:"object"`
	}
	if err := json.Unmarshal(value, &data); err != nil {
		t.Fatal(err)
	}
	o := data.Object
	utc := func(v any) bool { str, ok := v.(string); return ok && strings.HasSuffix(str, "Z") }
	if data.OrganizerID != checkouttest.OrgID || !data.Livemode || !utc(data.OccurredAt) ||
		o["sessionId"] != s.SessionID || o["orderId"] != s.OrderID || o["eventId"] != s.EventID || o["status"] != "EXPIRED" ||
		o["amountTotal"] != float64(total) || o["currency"] != "EUR" || !utc(o["createdAt"]) || !utc(o["expiresAt"]) || len(o) != 8 {
		t.Fatalf("expiry message %s", value)
	}
}
