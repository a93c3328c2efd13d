package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestTestSessionsPayWithTheTestStripeKey: a test-mode purchase opens its Stripe session with
// the test key and is recorded and answered as test data; a live one with the live key.
func TestTestSessionsPayWithTheTestStripeKey(t *testing.T) {
	env := start(t, checkouttest.Options{})
	r := testSession(t, env, checkouttest.Purchase(), testKeyID)
	if r.Status != http.StatusCreated || r.Body["livemode"] != false {
		t.Fatalf("test session: %d %s", r.Status, r.Raw)
	}
	conforms(t, "browserCheckoutSession", r)
	if key := env.Stripe.LastKey(checkouttest.RouteSessions); key != checkouttest.TestStripeKey {
		t.Fatalf("the test session was opened with %q", key)
	}
	if n := count(t, env, `SELECT count(*) FROM checkouts WHERE order_id = $1 AND NOT livemode`, r.Body["orderId"]); n != 1 {
		t.Fatalf("%d test checkouts of the order", n)
	}
	r = session(t, env, checkouttest.Purchase())
	if r.Status != http.StatusCreated || r.Body["livemode"] != true {
		t.Fatalf("live session: %d %s", r.Status, r.Raw)
	}
	if key := env.Stripe.LastKey(checkouttest.RouteSessions); key != checkouttest.LiveStripeKey {
		t.Fatalf("the live session was opened with %q", key)
	}
}

// TestTestSessionsNeedTestMode: without test-mode Stripe credentials a test purchase is
// refused (503) before anything is held, recorded or sent to Stripe.
func TestTestSessionsNeedTestMode(t *testing.T) {
	env := start(t, checkouttest.Options{NoTestMode: true})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "test-mode-off-1"
	r := testSession(t, env, b, testKeyID)
	wantError(t, r, http.StatusServiceUnavailable, "test-mode payments are not configured on this platform (no Stripe test key); use a live key")
	if _, held := env.Registration.LastOrder(); held || env.Stripe.Hits(checkouttest.RouteSessions) != 0 || count(t, env, `SELECT count(*) FROM checkouts`) != 0 ||
		count(t, env, `SELECT count(*) FROM idempotency_keys`) != 0 {
		t.Fatal("a refused test purchase left something behind")
	}
}

// TestIdempotencyKeysAreKeptPerMode: the same idempotency key and body under one key id in
// both modes are two purchases, never a replay of the other mode's answer.
func TestIdempotencyKeysAreKeptPerMode(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "both-modes-0001"
	live := env.Browser(t, "session", b, checkouttest.KeyID)
	test := testSession(t, env, b, checkouttest.KeyID)
	if live.Status != http.StatusCreated || test.Status != http.StatusCreated {
		t.Fatalf("live %d %s, test %d %s", live.Status, live.Raw, test.Status, test.Raw)
	}
	if test.Header.Get("Idempotent-Replayed") != "" || test.Body["orderId"] == live.Body["orderId"] || test.Body["livemode"] != false {
		t.Fatalf("the test request replayed the live one: %s", test.Raw)
	}
	again := testSession(t, env, b, checkouttest.KeyID)
	if again.Header.Get("Idempotent-Replayed") != "true" || again.Body["orderId"] != test.Body["orderId"] || again.Body["livemode"] != false {
		t.Fatalf("the test retry: %s", again.Raw)
	}
	if n := count(t, env, `SELECT count(DISTINCT livemode) FROM idempotency_keys WHERE idempotency_key = 'both-modes-0001'`); n != 2 {
		t.Fatalf("%d modes of the key recorded", n)
	}
}

// TestWebhooksAreVerifiedWithTheSecretOfTheirMode: a test event is verified with the test
// secret only, a live one with the live secret only, and a test event never moves a live
// checkout.
func TestWebhooksAreVerifiedWithTheSecretOfTheirMode(t *testing.T) {
	env := start(t, checkouttest.Options{})
	live := opened(t, env, "")
	test := openedTest(t, env)
	testEvent := checkouttest.StripeTestEvent(t, "checkout.session.completed", test, true, time.Now())
	liveEvent := checkouttest.StripeEvent(t, "checkout.session.completed", live, true, time.Now())
	for name, r := range map[string]struct {
		payload []byte
		secret  string
	}{
		"test event, live secret": {testEvent, checkouttest.WebhookSecret},
		"live event, test secret": {liveEvent, checkouttest.TestWebhookSecret},
		"test session said live":  {checkouttest.StripeEvent(t, "checkout.session.completed", test, true, time.Now()), checkouttest.TestWebhookSecret},
	} {
		res := env.Webhook(t, r.payload, signWith(r.payload, r.secret, time.Now()))
		if res.Status != http.StatusBadRequest || res.Body["code"] != "signature_invalid" {
			t.Errorf("%s: %d %s", name, res.Status, res.Raw)
		}
	}
	if st, _ := state(t, env, test.CheckoutID); st != "OPEN" {
		t.Fatalf("refused events moved the test checkout: %s", st)
	}
	// A test event naming the live checkout does not find it (a live one is not test data).
	stray := checkouttest.StripeTestEvent(t, "checkout.session.completed", live, true, time.Now())
	if r := env.SignedTestWebhook(t, stray, time.Now()); r.Status != http.StatusServiceUnavailable {
		t.Fatalf("a test event about a live checkout: %d %s", r.Status, r.Raw)
	}
	if st, _ := state(t, env, live.CheckoutID); st != "OPEN" {
		t.Fatalf("a test event moved the live checkout: %s", st)
	}
	wantWebhook(t, env.SignedTestWebhook(t, testEvent, time.Now()), "applied")
	wantWebhook(t, env.SignedWebhook(t, liveEvent, time.Now()), "applied")
	if st, _ := state(t, env, test.CheckoutID); st != "PAID" {
		t.Fatalf("test checkout %s", st)
	}
	if st, _ := state(t, env, live.CheckoutID); st != "PAID" {
		t.Fatalf("live checkout %s", st)
	}
}

// TestTestOutcomesPlayStripesEvents: complete, fail and expire move a test session as Stripe's
// events would, publishing test payment events; a live key, an unknown, live or other
// organizer's session and a session with an outcome are refused.
func TestTestOutcomesPlayStripesEvents(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	paid := openedTest(t, env)
	r := outcome(t, env, checkouttest.OrgID, paid.SessionID, "complete", true)
	if r.Status != http.StatusAccepted || r.Body["sessionId"] != paid.SessionID || r.Body["orderId"] != paid.OrderID ||
		r.Body["outcome"] != "complete" || r.Body["livemode"] != false {
		t.Fatalf("complete: %d %s", r.Status, r.Raw)
	}
	conforms(t, "organizerCompleteTestCheckoutSession", r)
	if st, _ := state(t, env, paid.CheckoutID); st != "PAID" {
		t.Fatalf("completed checkout %s", st)
	}
	m := next(t, events)
	var data map[string]any
	_ = json.Unmarshal(m.Value, &data)
	if m.Key != paid.OrderID || m.Headers["ce_type"] != domain.EventPaymentSucceeded || data["livemode"] != false || data["amount"] != 5875.0 {
		t.Fatalf("payment event %s %v %s", m.Key, m.Headers, m.Value)
	}
	if n := count(t, env, `SELECT count(*) FROM inbox WHERE consumer = $1`, app.TestStripeConsumer(checkouttest.OrgID)); n != 1 {
		t.Fatalf("%d test events in the inbox", n)
	}
	r = outcome(t, env, checkouttest.OrgID, paid.SessionID, "expire", true)
	wantError(t, r, http.StatusConflict, "this test checkout session already has an outcome")
	wantCode(t, r, "conflict")

	expired := openedTest(t, env)
	if r := outcome(t, env, checkouttest.OrgID, expired.SessionID, "expire", true); r.Status != http.StatusAccepted || r.Body["outcome"] != "expire" {
		t.Fatalf("expire: %d %s", r.Status, r.Raw)
	}
	m = next(t, events)
	_ = json.Unmarshal(m.Value, &data)
	if st, _ := state(t, env, expired.CheckoutID); st != "EXPIRED" || m.Headers["ce_type"] != domain.EventPaymentFailed ||
		data["reason"] != domain.FailureExpired || data["livemode"] != false {
		t.Fatalf("expired checkout %s, event %v %s", st, m.Headers, m.Value)
	}
	failed := openedTest(t, env)
	if r := outcome(t, env, checkouttest.OrgID, failed.SessionID, "fail", true); r.Status != http.StatusAccepted || r.Body["outcome"] != "fail" {
		t.Fatalf("fail: %d %s", r.Status, r.Raw)
	}
	m = next(t, events)
	_ = json.Unmarshal(m.Value, &data)
	if st, _ := state(t, env, failed.CheckoutID); st != "PAYMENT_FAILED" || data["reason"] != domain.FailureFailed || data["livemode"] != false {
		t.Fatalf("failed checkout %s, event %s", st, m.Value)
	}

	open := openedTest(t, env)
	r = outcome(t, env, checkouttest.OrgID, open.SessionID, "complete", false)
	wantError(t, r, http.StatusForbidden, "this route works on test data only: use a test-mode key")
	wantCode(t, r, "test_key_required")
	tok := env.Token(t, identity.Principal{OrganizerID: checkouttest.OrgID, KeyID: "key_sec_1", KeyType: identity.Secret, Scopes: []string{"registrations:write"}, Test: true})
	r = env.Do(t, http.MethodPost, "/external/v1/organizer/test/checkout-sessions/"+open.SessionID+"/complete", map[string]any{}, map[string]string{identity.Header: tok})
	wantError(t, r, http.StatusRequestEntityTooLarge, "this route takes no body")
	wantError(t, outcome(t, env, checkouttest.OtherOrgID, open.SessionID, "complete", true), http.StatusNotFound, nil)
	wantError(t, outcome(t, env, checkouttest.OrgID, "cs_test_unknown", "complete", true), http.StatusNotFound, nil)
	if st, _ := state(t, env, open.CheckoutID); st != "OPEN" {
		t.Fatalf("refused outcomes moved the session: %s", st)
	}
	// A free test session has no payment to settle.
	b := checkouttest.Purchase()
	b["promocode"] = "FREE"
	free := testSession(t, env, b, testKeyID)
	if free.Status != http.StatusCreated {
		t.Fatalf("free test session: %d %s", free.Status, free.Raw)
	}
	wantError(t, outcome(t, env, checkouttest.OrgID, free.Body["sessionId"].(string), "complete", true), http.StatusConflict, nil)
}

// TestLiveSessionsHaveNoTestOutcome: a live session is not found by the test outcomes.
func TestLiveSessionsHaveNoTestOutcome(t *testing.T) {
	env := start(t, checkouttest.Options{})
	live := opened(t, env, "")
	wantError(t, outcome(t, env, checkouttest.OrgID, live.SessionID, "complete", true), http.StatusNotFound, nil)
	if st, _ := state(t, env, live.CheckoutID); st != "OPEN" {
		t.Fatalf("live checkout %s", st)
	}
}

// TestWipeDeletesTestDataOnly: registration's wipe deletes the organizer's test checkouts, their
// idempotency records and test webhooks' inbox records, none of its live rows nor another
// organizer's, and a second wipe deletes nothing.
func TestWipeDeletesTestDataOnly(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "wipe-live-0001"
	if r := session(t, env, b); r.Status != http.StatusCreated {
		t.Fatalf("live session: %d %s", r.Status, r.Raw)
	}
	live := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", live, true), time.Now()), "applied")
	b["idempotencyKey"] = "wipe-test-0001"
	if r := testSession(t, env, b, testKeyID); r.Status != http.StatusCreated {
		t.Fatalf("test session: %d %s", r.Status, r.Raw)
	}
	test := openedTest(t, env)
	if r := outcome(t, env, checkouttest.OrgID, test.SessionID, "complete", true); r.Status != http.StatusAccepted {
		t.Fatalf("complete: %d %s", r.Status, r.Raw)
	}
	// A refused test purchase leaves an idempotency record of no checkout.
	b["idempotencyKey"], b["eventId"] = "wipe-test-0002", "evt_missing"
	if r := testSession(t, env, b, testKeyID); r.Status != http.StatusNotFound {
		t.Fatalf("test session of a missing event: %d %s", r.Status, r.Raw)
	}
	if n := count(t, env, `SELECT count(*) FROM idempotency_keys WHERE NOT livemode`); n != 2 {
		t.Fatalf("%d test idempotency records", n)
	}
	liveRows := func() [3]int {
		return [3]int{
			count(t, env, `SELECT count(*) FROM checkouts WHERE livemode`),
			count(t, env, `SELECT count(*) FROM idempotency_keys WHERE livemode`),
			count(t, env, `SELECT count(*) FROM inbox WHERE consumer = $1`, app.ConsumerStripe),
		}
	}
	before := liveRows()
	if before != [3]int{2, 1, 1} {
		t.Fatalf("live rows before %v", before)
	}

	wantError(t, wipe(t, env, identity.Gateway, checkouttest.OrgID, true), http.StatusForbidden, nil)
	r := wipe(t, env, identity.Registration, checkouttest.OrgID, false)
	wantError(t, r, http.StatusForbidden, nil)
	wantCode(t, r, "test_key_required")
	r = wipe(t, env, identity.Registration, checkouttest.OrgID, true)
	if r.Status != http.StatusOK || r.Body["checkoutSessions"] != 2.0 || len(r.Body) != 1 {
		t.Fatalf("wipe: %d %s", r.Status, r.Raw)
	}
	if after := liveRows(); after != before {
		t.Fatalf("live rows %v after the wipe, %v before", after, before)
	}
	if n := count(t, env, `SELECT count(*) FROM checkouts WHERE NOT livemode`) + count(t, env, `SELECT count(*) FROM idempotency_keys WHERE NOT livemode`) +
		count(t, env, `SELECT count(*) FROM inbox WHERE consumer <> $1`, app.ConsumerStripe); n != 0 {
		t.Fatalf("%d test rows left", n)
	}
	if r := wipe(t, env, identity.Registration, checkouttest.OrgID, true); r.Status != http.StatusOK || r.Body["checkoutSessions"] != 0.0 {
		t.Fatalf("second wipe: %d %s", r.Status, r.Raw)
	}
}

// TestReconciliationKeepsTheModesApart: each mode's reconciliation lists Stripe's sessions with
// its own key and settles only its own checkouts: live reconciliation passes a test session
// Stripe lists as paid, test reconciliation settles it.
func TestReconciliationKeepsTheModesApart(t *testing.T) {
	env := start(t, checkouttest.Options{})
	test := openedTest(t, env)
	env.Stripe.List(listed(test, "complete", env.Clock.Now()))
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Paid != 0 || env.Stripe.LastKey(checkouttest.RouteListSessions) != checkouttest.LiveStripeKey {
		t.Fatalf("live reconciliation %+v %v with %s", r, err, env.Stripe.LastKey(checkouttest.RouteListSessions))
	}
	if st, _ := state(t, env, test.CheckoutID); st != "OPEN" {
		t.Fatalf("live reconciliation moved a test checkout: %s", st)
	}
	if r, err := env.Service.ReconcileMode(t.Context(), false); err != nil || r.Paid != 1 || env.Stripe.LastKey(checkouttest.RouteListSessions) != checkouttest.TestStripeKey {
		t.Fatalf("test reconciliation %+v %v with %s", r, err, env.Stripe.LastKey(checkouttest.RouteListSessions))
	}
	if st, _ := state(t, env, test.CheckoutID); st != "PAID" {
		t.Fatalf("test checkout %s", st)
	}
	if n := count(t, env, `SELECT count(*) FROM reconcile_mark`); n != 2 {
		t.Fatalf("%d reconciliation marks, want one per mode", n)
	}
}

// TestTestRefundsUseTheTestKey: the refund of a test payment is made with the test key.
func TestTestRefundsUseTheTestKey(t *testing.T) {
	env := startQuiet(t)
	svc, _ := env.CountedService(t)
	s := openedTest(t, env)
	wantWebhook(t, env.SignedTestWebhook(t, checkouttest.StripeTestEvent(t, "checkout.session.completed", s, true, time.Now()), time.Now()), "applied")
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: s.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: s.PaymentIntent}
	if err := svc.HandleOrderEvent(t.Context(), "msg_"+s.OrderID, e); err != nil {
		t.Fatal(err)
	}
	if made, err := svc.MakeDueRefunds(t.Context()); err != nil || made.Made != 1 {
		t.Fatalf("refunds %+v %v", made, err)
	}
	if key := env.Stripe.LastKey(checkouttest.RouteRefunds); key != checkouttest.TestStripeKey {
		t.Fatalf("the test refund was made with %q", key)
	}
	if st, _ := state(t, env, s.CheckoutID); st != "REFUNDED_NO_PLACE" {
		t.Fatalf("test checkout %s", st)
	}
}

// TestTestModeSeesUnpublishedEvents: a test-mode buyer buys in an event not published yet, as
// its preview token would let it; a live buyer does not find it.
func TestTestModeSeesUnpublishedEvents(t *testing.T) {
	env := start(t, checkouttest.Options{})
	draft := checkouttest.Event()
	draft["id"], draft["status"], draft["private"] = "evt_unpublished", "UNDER_REVIEW", true
	env.Catalog.Put(draft)
	b := checkouttest.Purchase()
	b["eventId"] = "evt_unpublished"
	wantError(t, session(t, env, b), 404, "event evt_unpublished not found")
	if r := testSession(t, env, b, testKeyID); r.Status != http.StatusCreated {
		t.Fatalf("test session: %d %s", r.Status, r.Raw)
	}
}
