package api_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// organizerKey is a secret key of org allowed to refund.
func organizerKey(org string, test bool, scopes ...string) identity.Principal {
	if len(scopes) == 0 {
		scopes = []string{"refunds:write"}
	}
	return identity.Principal{OrganizerID: org, KeyID: "key_sec_refunds", KeyType: identity.Secret, Scopes: scopes, Test: test}
}

// refund posts a refund as the gateway forwards it for p, with the Idempotency-Key key.
func refund(t testing.TB, env *checkouttest.Env, p identity.Principal, key string, body map[string]any) testkit.Response {
	t.Helper()
	h := map[string]string{identity.Header: env.Token(t, p)}
	if key != "" {
		h["Idempotency-Key"] = key
	}
	return env.Do(t, http.MethodPost, "/external/v1/organizer/refunds", body, h)
}

// refundNow reads a refund as the organizer of p sees it.
func refundNow(t testing.TB, env *checkouttest.Env, p identity.Principal, id string) testkit.Response {
	t.Helper()
	return env.Do(t, http.MethodGet, "/external/v1/organizer/refunds/"+id, nil, map[string]string{identity.Header: env.Token(t, p)})
}

// paid opens a session and pays it (5875 EUR).
func paid(t *testing.T, env *checkouttest.Env) checkouttest.StripeSession {
	t.Helper()
	s := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	return s
}

// succeeded waits until the refund id is succeeded, as its organizer reads it.
func succeeded(t *testing.T, env *checkouttest.Env, p identity.Principal, id string) testkit.Response {
	t.Helper()
	var r testkit.Response
	testkit.Eventually(t, 30*time.Second, func() string {
		if r = refundNow(t, env, p, id); r.Body["status"] != "succeeded" {
			return fmt.Sprintf("refund %s: %d %s", id, r.Status, r.Raw)
		}
		return ""
	})
	return r
}

// TestAFullRefundIsMadeOnceAndReplayedByItsKey: a refund of the whole payment answers 202
// pending; the worker makes it (succeeded, refund.succeeded saying the order is refunded); the
// same key and body replay it as it now is; the key with another body is 422; a second refund
// finds nothing left (409 refund_exceeds_paid).
func TestAFullRefundIsMadeOnceAndReplayedByItsKey(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := paid(t, env)
	p := organizerKey(checkouttest.OrgID, false)
	body := map[string]any{"orderId": s.OrderID, "reason": "event cancelled", "cancelTickets": true}
	r := refund(t, env, p, "refund-full-1", body)
	if r.Status != http.StatusAccepted || r.Body["status"] != "pending" || r.Body["amount"] != float64(5875) || r.Body["currency"] != "EUR" {
		t.Fatalf("refund: %d %s", r.Status, r.Raw)
	}
	id := r.Body["id"].(string)
	succeeded(t, env, p, id)
	if got := env.Stripe.Last(checkouttest.RouteRefunds); got.Get("amount") != "5875" || got.Get("payment_intent") != s.PaymentIntent {
		t.Fatalf("Stripe was asked %v", got)
	}
	again := refund(t, env, p, "refund-full-1", body)
	if again.Status != http.StatusAccepted || again.Body["id"] != id || again.Body["status"] != "succeeded" || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s", again.Status, again.Raw)
	}
	wantCode(t, refund(t, env, p, "refund-full-1", map[string]any{"orderId": s.OrderID, "reason": "other"}), domain.CodeIdempotencyKeyReused)
	wantCode(t, refund(t, env, p, "refund-full-2", body), domain.CodeRefundExceedsPaid)
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 {
		t.Fatalf("%d refunds asked of Stripe, want 1", n)
	}
	if n := outboxed(t, env, domain.EventRefundSucceeded); n != 1 {
		t.Fatalf("%d refund.succeeded, want 1", n)
	}
	var refunded bool
	if err := env.Pool.QueryRow(t.Context(), `SELECT (convert_from(payload, 'UTF8')::jsonb->>'orderRefunded')::boolean FROM outbox WHERE headers->>'ce_type' = $1`, domain.EventRefundSucceeded).Scan(&refunded); err != nil || !refunded {
		t.Fatalf("refund.succeeded orderRefunded %v (%v), want true", refunded, err)
	}
}

// TestTwentyConcurrentPartialRefundsNeverReturnMoreThanPaid: 20 refunds of 1000 of a payment of
// 5875 sent at once: 5 are accepted, 15 refused with 409 refund_exceeds_paid, and what is
// counted against the payment is what was accepted.
func TestTwentyConcurrentPartialRefundsNeverReturnMoreThanPaid(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := paid(t, env)
	p := organizerKey(checkouttest.OrgID, false)
	var mu sync.Mutex
	codes, accepted := map[string]int{}, int64(0)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := refund(t, env, p, fmt.Sprintf("partial-%02d", i), map[string]any{"orderId": s.OrderID, "amount": 1000, "reason": "partial"})
			mu.Lock()
			defer mu.Unlock()
			switch r.Status {
			case http.StatusAccepted:
				accepted += int64(r.Body["amount"].(float64))
			case http.StatusConflict:
				codes[fmt.Sprint(r.Body["code"])]++
			default:
				codes[fmt.Sprintf("status %d", r.Status)]++
			}
		}()
	}
	wg.Wait()
	if accepted != 5000 || codes[domain.CodeRefundExceedsPaid] != 15 || len(codes) != 1 {
		t.Fatalf("accepted %d, refusals %v; want 5000 accepted of 5875 and 15 refund_exceeds_paid", accepted, codes)
	}
	var counted int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT amount_refunded FROM checkouts WHERE id = $1`, s.CheckoutID).Scan(&counted); err != nil || counted != accepted {
		t.Fatalf("counted %d (%v), want %d", counted, err, accepted)
	}
}

// TestRefundsAreRefusedClearly: without the scope 403; another organizer's order, or the order
// with a test key, 404; an order not paid 409 order_not_paid; more than paid 409
// refund_exceeds_paid; no Idempotency-Key 400; a refund of another organizer 404.
func TestRefundsAreRefusedClearly(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := paid(t, env)
	unpaid := opened(t, env, "")
	p := organizerKey(checkouttest.OrgID, false)
	body := map[string]any{"orderId": s.OrderID, "reason": "r"}
	if r := refund(t, env, organizerKey(checkouttest.OrgID, false, "registrations:write"), "refuse-0001", body); r.Status != http.StatusForbidden {
		t.Fatalf("without refunds:write: %d %s", r.Status, r.Raw)
	}
	for name, pr := range map[string]identity.Principal{"another organizer": organizerKey("org_other", false), "a test key": organizerKey(checkouttest.OrgID, true)} {
		if r := refund(t, env, pr, "refuse-0002", body); r.Status != http.StatusNotFound {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	wantCode(t, refund(t, env, p, "refuse-0003", map[string]any{"orderId": unpaid.OrderID, "reason": "r"}), domain.CodeOrderNotPaid)
	wantCode(t, refund(t, env, p, "refuse-0004", map[string]any{"orderId": s.OrderID, "amount": 5876, "reason": "r"}), domain.CodeRefundExceedsPaid)
	wantCode(t, refund(t, env, p, "", body), domain.CodeIdempotencyKeyRequired)
	ok := refund(t, env, p, "refuse-0005", map[string]any{"orderId": s.OrderID, "amount": 100, "reason": "r"})
	if ok.Status != http.StatusAccepted {
		t.Fatalf("refund: %d %s", ok.Status, ok.Raw)
	}
	if r := refundNow(t, env, organizerKey("org_other", false), ok.Body["id"].(string)); r.Status != http.StatusNotFound {
		t.Fatalf("another organizer's refund: %d %s", r.Status, r.Raw)
	}
	list := env.Do(t, http.MethodGet, "/external/v1/organizer/refunds?orderId="+s.OrderID, nil, map[string]string{identity.Header: env.Token(t, p)})
	if list.Status != http.StatusOK || list.Body["total"] != float64(1) {
		t.Fatalf("list: %d %s", list.Status, list.Raw)
	}
}

// TestARefundSurvivesAStripeOutage: while Stripe answers 503 the refund stays pending with
// Stripe's answer shown, retried after the backoff; once Stripe answers it succeeds, asked
// once more with the next claim's key after the payment's refunds were read.
func TestARefundSurvivesAStripeOutage(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := paid(t, env)
	p := organizerKey(checkouttest.OrgID, false)
	env.Clock.Set(env.Clock.Now())
	env.Stripe.RefundsDown.Store(true)
	r := refund(t, env, p, "outage-0001", map[string]any{"orderId": s.OrderID, "amount": 2000, "reason": "r"})
	if r.Status != http.StatusAccepted {
		t.Fatalf("refund: %d %s", r.Status, r.Raw)
	}
	id := r.Body["id"].(string)
	testkit.Eventually(t, 30*time.Second, func() string {
		if now := refundNow(t, env, p, id); now.Body["status"] != "pending" || now.Body["failureMessage"] == nil {
			return fmt.Sprintf("while Stripe is down: %s", now.Raw)
		}
		return ""
	})
	env.Stripe.RefundsDown.Store(false)
	env.Clock.Advance(domain.RefundFirstRetry)
	succeeded(t, env, p, id)
	keys := env.Stripe.IdempotencyKeys()
	if keys[domain.OrderRefundIdempotencyPrefix+id] != 1 || keys[domain.OrderRefundIdempotencyPrefix+id+"-2"] != 1 {
		t.Fatalf("idempotency keys %v", keys)
	}
	if n := outboxed(t, env, domain.EventRefundSucceeded); n != 1 {
		t.Fatalf("%d refund.succeeded, want 1", n)
	}
}

// TestARefundOfTicketsReturnsTheirShare: tickets name their order; the refund returns their
// share of what their registration cost (the fixture's one athlete: the registration's total),
// a ticket refunded already is refused, and another organizer's tickets are not found.
func TestARefundOfTicketsReturnsTheirShare(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := paid(t, env)
	p := organizerKey(checkouttest.OrgID, false)
	var regTotal int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT (quote->'registrations'->0->>'total')::bigint FROM checkouts WHERE id = $1`, s.CheckoutID).Scan(&regTotal); err != nil {
		t.Fatal(err)
	}
	ticket := "tkt_" + s.OrderID[4:] + "_0_0"
	body := map[string]any{"ticketIds": []string{ticket}, "reason": "injured", "cancelTickets": true}
	if r := refund(t, env, organizerKey("org_other", false), "tickets-0001", body); r.Status != http.StatusNotFound {
		t.Fatalf("another organizer's ticket: %d %s", r.Status, r.Raw)
	}
	r := refund(t, env, p, "tickets-0002", body)
	if r.Status != http.StatusAccepted || r.Body["orderId"] != s.OrderID || r.Body["amount"] != float64(regTotal) || r.Body["cancelTickets"] != true {
		t.Fatalf("refund of a ticket: %d %s, want %d of %s", r.Status, r.Raw, regTotal, s.OrderID)
	}
	wantCode(t, refund(t, env, p, "tickets-0003", body), domain.CodeTicketAlreadyRefunded)
}

// TestATestKeyRefundsTestOrdersThroughStripesTestMode: a test order completed by its test
// outcome is refunded with a test key, through the test-mode Stripe key, and the refund says
// livemode false; a live key does not find it.
func TestATestKeyRefundsTestOrdersThroughStripesTestMode(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := openedTest(t, env)
	if r := outcome(t, env, checkouttest.OrgID, s.SessionID, "complete", true); r.Status != http.StatusAccepted {
		t.Fatalf("test outcome: %d %s", r.Status, r.Raw)
	}
	testkit.Eventually(t, 30*time.Second, func() string {
		if st, _ := state(t, env, s.CheckoutID); st != "PAID" {
			return "test checkout " + st
		}
		return ""
	})
	body := map[string]any{"orderId": s.OrderID, "reason": "test"}
	if r := refund(t, env, organizerKey(checkouttest.OrgID, false), "test-mode-1", body); r.Status != http.StatusNotFound {
		t.Fatalf("a live key: %d %s", r.Status, r.Raw)
	}
	p := organizerKey(checkouttest.OrgID, true)
	r := refund(t, env, p, "test-mode-2", body)
	if r.Status != http.StatusAccepted || r.Body["livemode"] != false {
		t.Fatalf("a test key: %d %s", r.Status, r.Raw)
	}
	succeeded(t, env, p, r.Body["id"].(string))
	if key := env.Stripe.LastKey(checkouttest.RouteRefunds); key != checkouttest.TestStripeKey {
		t.Fatalf("the refund was asked with %q, want the test-mode key", key)
	}
}

// TestARefundStripeRefusesForGoodFailsWithItsReason: Stripe refuses the refund for good (400
// charge_disputed): it is failed with Stripe's code and message, asked once, and its amount is
// no longer counted, so the whole payment can be refunded again once the cause is fixed.
func TestARefundStripeRefusesForGoodFailsWithItsReason(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := paid(t, env)
	p := organizerKey(checkouttest.OrgID, false)
	env.Stripe.RefuseRefunds(s.PaymentIntent, http.StatusBadRequest, "invalid_request_error", "charge_disputed")
	r := refund(t, env, p, "refused-0001", map[string]any{"orderId": s.OrderID, "reason": "r"})
	if r.Status != http.StatusAccepted {
		t.Fatalf("refund: %d %s", r.Status, r.Raw)
	}
	id := r.Body["id"].(string)
	var now testkit.Response
	testkit.Eventually(t, 30*time.Second, func() string {
		if now = refundNow(t, env, p, id); now.Body["status"] != "failed" {
			return fmt.Sprintf("refund %s: %s", id, now.Raw)
		}
		return ""
	})
	if now.Body["failureCode"] != "charge_disputed" || now.Body["failedAt"] == nil || env.Stripe.Hits(checkouttest.RouteRefunds) != 1 {
		t.Fatalf("refused: %s after %d calls", now.Raw, env.Stripe.Hits(checkouttest.RouteRefunds))
	}
	env.Stripe.AllowRefunds(s.PaymentIntent)
	again := refund(t, env, p, "refused-0002", map[string]any{"orderId": s.OrderID, "reason": "r"})
	if again.Status != http.StatusAccepted || again.Body["amount"] != float64(5875) {
		t.Fatalf("the whole payment again: %d %s", again.Status, again.Raw)
	}
	succeeded(t, env, p, again.Body["id"].(string))
}
