package payments_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/payments"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestMain(m *testing.M) { os.Exit(checkouttest.Main(m)) }

const secret = "whsec_adapter_test"

func client(t *testing.T, base string) *payments.Client {
	return payments.New(payments.Options{SecretKey: "sk_test_adapter", APIBase: base, WebhookSecret: secret, MaxNetworkRetries: -1, Timeout: 5 * time.Second})
}

func TestCreateSessionAndRefundOnStripeMock(t *testing.T) {
	proxy := checkouttest.NewStripe(t)
	c := client(t, proxy.URL)
	exp := time.Now().Add(31 * time.Minute).Truncate(time.Second).UTC()
	s, err := c.CreateSession(t.Context(), domain.PaymentRequest{
		CheckoutID: "chk_1", OrderID: "ord_1", EventID: "evt_1", OrganizerID: "org_1", Currency: "EUR",
		Lines:         []domain.PaymentLine{{Name: "Summer: RX (A)", Quantity: 1, UnitAmount: 5500}, {Name: "Lunch", Quantity: 2, UnitAmount: 800}},
		CustomerEmail: "ana@example.com", SuccessURL: "https://shop.example/ok#top", CancelURL: "https://shop.example/cart",
		ExpiresAt: exp, IdempotencyKey: "podium-checkout-chk_1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.ID, "cs_") || !strings.HasPrefix(s.URL, "https://") || !s.ExpiresAt.Equal(exp) || !strings.HasPrefix(s.PaymentIntent, "pi_") {
		t.Fatalf("session %+v", s)
	}
	f := proxy.Last(checkouttest.RouteSessions)
	if f.Get("success_url") != "https://shop.example/ok?session_id={CHECKOUT_SESSION_ID}#top" || f.Get("line_items[1][quantity]") != "2" ||
		f.Get("line_items[0][price_data][currency]") != "eur" || proxy.IdempotencyKeys()["podium-checkout-chk_1"] != 1 {
		t.Fatalf("parameters %v", f)
	}
	id, err := c.Refund(t.Context(), domain.Refund{PaymentIntent: "pi_123", IdempotencyKey: "podium-refund-ord_1", Metadata: map[string]string{"orderId": "ord_1"}})
	if err != nil || !strings.HasPrefix(id, "re_") || proxy.IdempotencyKeys()["podium-refund-ord_1"] != 1 || proxy.Last(checkouttest.RouteRefunds).Get("metadata[orderId]") != "ord_1" {
		t.Fatalf("refund %q %v", id, err)
	}
}

// TestRecentSessionsOnStripeMock lists sessions as reconciliation does: stripe-mock checks the
// request (created[gte], limit); the sessions the proxy lists in place of its fixture come back
// with their creation time and what their state says: paid, awaiting a delayed payment,
// expired, open.
func TestRecentSessionsOnStripeMock(t *testing.T) {
	proxy := checkouttest.NewStripe(t)
	c := client(t, proxy.URL)
	since := time.Now().Add(-48 * time.Hour)
	if ls, err := c.RecentSessions(t.Context(), since); err != nil || len(ls) != 0 {
		t.Fatalf("sessions with none listed: %+v %v", ls, err)
	}
	if q := proxy.Last(checkouttest.RouteListSessions); q.Get("created[gte]") != strconv.FormatInt(since.Unix(), 10) || q.Get("limit") != "100" {
		t.Fatalf("list query %v", q)
	}
	created := time.Now().Add(-2 * time.Hour).Truncate(time.Second).UTC()
	meta := map[string]any{"checkoutId": "chk_1", "orderId": "ord_1"}
	proxy.List(map[string]any{"id": "cs_paid", "status": "complete", "payment_status": "paid", "metadata": meta, "payment_intent": "pi_9", "amount_total": 5875, "currency": "eur", "created": created.Unix()})
	proxy.List(map[string]any{"id": "cs_slow", "status": "complete", "payment_status": "unpaid", "metadata": meta, "created": created.Unix()})
	proxy.List(map[string]any{"id": "cs_gone", "status": "expired", "payment_status": "unpaid", "metadata": map[string]any{"checkoutId": "chk_2"}, "client_reference_id": "ord_2", "payment_intent": nil, "created": created.Unix()})
	proxy.List(map[string]any{"id": "cs_open", "status": "open", "payment_status": "unpaid", "metadata": map[string]any{"checkoutId": "chk_3"}, "created": created.Add(time.Hour).Unix()})
	ls, err := c.RecentSessions(t.Context(), since)
	if err != nil || len(ls) != 4 {
		t.Fatalf("sessions %+v %v, want the four listed", ls, err)
	}
	paid, slow, expired, open := ls[0], ls[1], ls[2], ls[3]
	if ev := paid.Outcome; paid.Open() || ev.Kind != domain.PaymentCompleted || !ev.Paid || ev.SessionID != "cs_paid" || ev.CheckoutID != "chk_1" ||
		ev.OrderID != "ord_1" || ev.PaymentIntent != "pi_9" || *ev.AmountTotal != 5875 || ev.ID != "" || !paid.Created.Equal(created) {
		t.Fatalf("paid session %+v", paid)
	}
	if slow.Open() || slow.Outcome.Kind != domain.PaymentCompleted || slow.Outcome.Paid {
		t.Fatalf("session awaiting a delayed payment %+v", slow)
	}
	if ev := expired.Outcome; expired.Open() || ev.Kind != domain.PaymentExpired || ev.Paid || ev.SessionID != "cs_gone" || ev.CheckoutID != "chk_2" || ev.OrderID != "ord_2" {
		t.Fatalf("expired session %+v", expired)
	}
	if !open.Open() || !open.Ours() || !open.Created.Equal(created.Add(time.Hour)) {
		t.Fatalf("open session %+v", open)
	}
}

// TestRefundFailuresAreClassified: Stripe's answers to a refund, from a loopback server speaking
// its refunds API, are temporary (no answer, 409, 429, lock_timeout, 5xx) or permanent (any
// other 4xx, unless Stripe's Stripe-Should-Retry header says true), with Stripe's code, a
// mark on charge_already_refunded, and a message that never quotes the key (401, and 403 for a
// restricted key).
func TestRefundFailuresAreClassified(t *testing.T) {
	for _, tc := range []struct {
		status          int
		errType, code   string
		shouldRetry     string
		permanent       bool
		messageContains string
	}{
		{400, "invalid_request_error", "charge_already_refunded", "", true, "Charge ch_1 has already been refunded."},
		{400, "invalid_request_error", "charge_disputed", "", true, "charge_disputed"},
		{404, "invalid_request_error", "resource_missing", "", true, "HTTP 404"},
		{402, "card_error", "expired_card", "", true, "expired_card"},
		{401, "invalid_request_error", "", "", true, "authentication with the configured key failed"},
		{403, "invalid_request_error", "secret_key_required", "", true, "the configured key may not do this"},
		{409, "idempotency_error", "", "", false, "HTTP 409"},
		{429, "invalid_request_error", "rate_limit", "", false, "rate_limit"},
		{400, "invalid_request_error", "lock_timeout", "", false, "lock_timeout"},
		{500, "api_error", "", "", false, "HTTP 500"},
		{503, "api_error", "", "", false, "HTTP 503"},
		{400, "invalid_request_error", "charge_disputed", "true", false, "charge_disputed"},
		{500, "api_error", "", "false", false, "HTTP 500"}, // advice about the same key: the next attempt uses another
		{409, "idempotency_error", "", "false", false, "HTTP 409"},
		{400, "invalid_request_error", "charge_disputed", "false", true, "charge_disputed"},
	} {
		stripe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method+" "+r.URL.Path != checkouttest.RouteRefunds || r.Header.Get("Idempotency-Key") != "podium-refund-ord_1" {
				http.Error(w, "unexpected request", http.StatusTeapot)
				return
			}
			msg := "Charge ch_1 has already been refunded."
			switch tc.status {
			case http.StatusUnauthorized:
				msg = "Invalid API Key provided: sk_test_******pter"
			case http.StatusForbidden:
				msg = "The provided key 'rk_test_******pter' does not have the required permissions for this endpoint."
			}
			body, _ := json.Marshal(map[string]any{"error": map[string]any{"type": tc.errType, "code": tc.code, "message": msg}})
			w.Header().Set("Request-Id", "req_1")
			if tc.shouldRetry != "" {
				w.Header().Set("Stripe-Should-Retry", tc.shouldRetry)
			}
			w.WriteHeader(tc.status)
			_, _ = w.Write(body)
		}))
		_, err := client(t, stripe.URL).Refund(t.Context(), domain.Refund{PaymentIntent: "pi_1", IdempotencyKey: "podium-refund-ord_1"})
		stripe.Close()
		var refusal *domain.RefundError
		if !errors.As(err, &refusal) || refusal.Permanent != tc.permanent || refusal.Code != tc.code || refusal.AlreadyRefunded != (tc.code == "charge_already_refunded") ||
			!strings.Contains(refusal.Message, tc.messageContains) || strings.Contains(refusal.Message, "_test_") {
			t.Errorf("HTTP %d %s (Stripe-Should-Retry %q): %#v, want permanent %v with code %q", tc.status, tc.code, tc.shouldRetry, refusal, tc.permanent, tc.code)
		}
	}
	_, err := client(t, "http://127.0.0.1:1").Refund(t.Context(), domain.Refund{PaymentIntent: "pi_1", IdempotencyKey: "k"})
	var refusal *domain.RefundError
	if !errors.As(err, &refusal) || refusal.Permanent || refusal.Code != "" {
		t.Errorf("Stripe unreachable: %#v, want a temporary failure", err)
	}
}

// TestRefundsOfAPaymentOnStripeMock: a payment's refunds are listed (stripe-mock checks the
// request) with their payment intent, status, amount and the checkout their metadata names:
// stripe-mock's fixture (of no payment intent) and those made through the proxy.
func TestRefundsOfAPaymentOnStripeMock(t *testing.T) {
	proxy := checkouttest.NewStripe(t)
	c := client(t, proxy.URL)
	id, err := c.Refund(t.Context(), domain.Refund{PaymentIntent: "pi_listed", IdempotencyKey: "podium-refund-ord_1", Metadata: map[string]string{"checkoutId": "chk_1"}})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := c.Refunds(t.Context(), "pi_listed")
	if err != nil || len(listed) != 2 {
		t.Fatalf("refunds %+v %v, want the fixture and the one made", listed, err)
	}
	if q := proxy.Last(checkouttest.RouteListRefunds); q.Get("payment_intent") != "pi_listed" || q.Get("limit") != "100" {
		t.Fatalf("list query %v", q)
	}
	if r := listed[1]; r.ID != id || r.PaymentIntent != "pi_listed" || r.CheckoutID != "chk_1" || r.Status != "succeeded" || r.Amount <= 0 || r.Created.IsZero() {
		t.Fatalf("the refund made: %+v", r)
	}
	if r := listed[0]; r.PaymentIntent != "" || r.CheckoutID != "" {
		t.Fatalf("stripe-mock's fixture: %+v", r)
	}
}

// TestSessionReadById: a session read by id comes back as a listed one; a complete one whose
// delayed payment failed (its payment intent, expanded, needs another payment method) reads as
// async_payment_failed, one still awaited as completed and unpaid.
func TestSessionReadById(t *testing.T) {
	proxy := checkouttest.NewStripe(t)
	c := client(t, proxy.URL)
	created := time.Now().Add(-72 * time.Hour).Truncate(time.Second).UTC()
	meta := map[string]any{"checkoutId": "chk_1", "orderId": "ord_1"}
	proxy.List(map[string]any{"id": "cs_failed", "status": "complete", "payment_status": "unpaid", "metadata": meta, "created": created.Unix(),
		"payment_intent": map[string]any{"id": "pi_1", "object": "payment_intent", "status": "requires_payment_method"}})
	proxy.List(map[string]any{"id": "cs_waiting", "status": "complete", "payment_status": "unpaid", "metadata": meta, "created": created.Unix(),
		"payment_intent": map[string]any{"id": "pi_2", "object": "payment_intent", "status": "processing"}})
	proxy.List(map[string]any{"id": "cs_paid", "status": "complete", "payment_status": "paid", "metadata": meta, "created": created.Unix(),
		"payment_intent": map[string]any{"id": "pi_3", "object": "payment_intent", "status": "succeeded"}, "amount_total": 5875})
	for id, want := range map[string]struct {
		kind domain.PaymentEventKind
		paid bool
	}{"cs_failed": {domain.PaymentAsyncFailed, false}, "cs_waiting": {domain.PaymentCompleted, false}, "cs_paid": {domain.PaymentCompleted, true}} {
		ls, err := c.Session(t.Context(), id)
		if err != nil || ls.Outcome.Kind != want.kind || ls.Outcome.Paid != want.paid || ls.Outcome.SessionID != id || ls.Outcome.CheckoutID != "chk_1" ||
			!ls.Created.Equal(created) {
			t.Errorf("session %s: %+v %v, want %s paid %v", id, ls, err, want.kind, want.paid)
		}
	}
	if q := proxy.Last(checkouttest.RouteListSessions + "/cs_paid"); q.Get("expand[0]") != "payment_intent" {
		t.Fatalf("read query %v, want the payment intent expanded", q)
	}
}

func TestStripeFailuresAreErrors(t *testing.T) {
	proxy := checkouttest.NewStripe(t)
	proxy.Down.Store(true)
	if _, err := client(t, proxy.URL).CreateSession(t.Context(), domain.PaymentRequest{Currency: "EUR", ExpiresAt: time.Now().Add(time.Hour)}); err == nil {
		t.Fatal("no error while Stripe is down")
	}
	if _, err := client(t, "http://127.0.0.1:1").Refund(t.Context(), domain.Refund{PaymentIntent: "pi_1", IdempotencyKey: "k"}); err == nil {
		t.Fatal("no error while Stripe is unreachable")
	}
	if _, err := client(t, proxy.URL).RecentSessions(t.Context(), time.Now().Add(-time.Hour)); err == nil {
		t.Fatal("no error listing sessions while Stripe is down")
	}
	if _, err := client(t, proxy.URL).Session(t.Context(), "cs_1"); err == nil {
		t.Fatal("no error reading a session while Stripe is down")
	}
	var refusal *domain.RefundError
	if _, err := client(t, proxy.URL).Refunds(t.Context(), "pi_1"); !errors.As(err, &refusal) || refusal.Permanent {
		t.Fatalf("listing refunds while Stripe is down: %#v, want a temporary failure", err)
	}
}

func sign(payload []byte, key string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: key, Timestamp: at}).Header
}

func TestParseWebhook(t *testing.T) {
	c := client(t, "http://127.0.0.1:1")
	payload := []byte(`{"id":"evt_1","object":"event","api_version":"2019-01-01","created":1795000000,"type":"checkout.session.completed","data":{"object":{
		"id":"cs_1","object":"checkout.session","payment_status":"paid","payment_intent":"pi_1","amount_total":5875,"currency":"eur",
		"client_reference_id":"ord_ref","metadata":{"checkoutId":"chk_1"}}}}`)
	ev, err := c.ParseWebhook(payload, sign(payload, secret, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID != "evt_1" || ev.Kind != domain.PaymentCompleted || ev.SessionID != "cs_1" || ev.CheckoutID != "chk_1" || ev.OrderID != "ord_ref" ||
		!ev.Paid || ev.PaymentIntent != "pi_1" || *ev.AmountTotal != 5875 || ev.Currency != "eur" || ev.Created.Unix() != 1795000000 {
		t.Fatalf("event %+v", ev)
	}
	for name, header := range map[string]string{
		"missing": "", "other secret": sign(payload, "whsec_other", time.Now()), "stale": sign(payload, secret, time.Now().Add(-payments.Tolerance-time.Second)),
	} {
		if _, err := c.ParseWebhook(payload, header); !errors.Is(err, domain.ErrInvalidSignature) {
			t.Errorf("%s signature: %v", name, err)
		}
	}
	notASession := []byte(`{"id":"evt_2","type":"checkout.session.expired","data":{"object":{"id":5}}}`)
	if _, err := c.ParseWebhook(notASession, sign(notASession, secret, time.Now())); !errors.Is(err, domain.ErrInvalidBody) {
		t.Errorf("a number as session id: %v", err)
	}
	other := []byte(`{"id":"evt_3","type":"customer.created","data":{"object":{"id":"cus_1"}}}`)
	if ev, err := c.ParseWebhook(other, sign(other, secret, time.Now())); err != nil || ev.Handled() {
		t.Errorf("another type: %+v %v", ev, err)
	}
}

// FuzzParseWebhook feeds arbitrary payloads, signed and not: a signed one never panics and is
// either refused as an invalid body or read as an event with an id and without U+0000 in any
// id (PostgreSQL refuses it); an unsigned one is always refused.
func FuzzParseWebhook(f *testing.F) {
	f.Add([]byte(`{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"id":"cs_1","metadata":{"checkoutId":"chk_1"}}}}`))
	f.Add([]byte(`{"type":"checkout.session.expired","data":{"object":null}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"id":"evt_\u0000","type":"checkout.session.completed","data":{"object":{"id":"cs_1","payment_intent":"pi_\u0000"}}}`))
	c := payments.New(payments.Options{SecretKey: "sk_test_fuzz", WebhookSecret: secret})
	f.Fuzz(func(t *testing.T, payload []byte) {
		ev, err := c.ParseWebhook(payload, sign(payload, secret, time.Now()))
		switch {
		case err != nil && !errors.Is(err, domain.ErrInvalidSignature) && !errors.Is(err, domain.ErrInvalidBody):
			t.Fatalf("a signed payload: %v", err)
		case err == nil && ev.ID == "":
			t.Fatalf("an event without an id: %+v", ev)
		case err == nil && strings.ContainsRune(ev.ID+ev.SessionID+ev.CheckoutID+ev.OrderID+ev.PaymentIntent+ev.Currency, 0):
			t.Fatalf("an event holding U+0000: %+v", ev)
		}
		if _, err := c.ParseWebhook(payload, sign(payload, "whsec_forged", time.Now())); err == nil {
			t.Fatal("a payload signed with another secret was accepted")
		}
	})
}
