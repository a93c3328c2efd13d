package api_test

import (
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// decidedRefund opens and pays a session and decides its refund (no place left) through svc,
// on the service's clock stopped at the decision, and returns the session. Tests that make
// the refunds themselves decide through another instance than the service's (whose refund
// worker is woken only by its own decisions; see startQuiet).
func decidedRefund(t *testing.T, env *checkouttest.Env, svc *app.Service) checkouttest.StripeSession {
	t.Helper()
	s := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	env.Clock.Set(env.Clock.Now())
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: s.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: s.PaymentIntent}
	if err := svc.HandleOrderEvent(t.Context(), "msg_"+s.OrderID, e); err != nil {
		t.Fatal(err)
	}
	return s
}

// dueAgain moves the service's clock to the refund's next attempt.
func dueAgain(t *testing.T, env *checkouttest.Env, checkoutID string) {
	t.Helper()
	r := refundOf(t, env, checkoutID)
	if r.next == nil {
		t.Fatalf("refund of %s not due again: %+v", checkoutID, r)
	}
	env.Clock.Set(*r.next)
}

// TestARefundAnswered500IsAskedAgainWithAnotherKey: Stripe answers a refund 500 and gives
// that answer again to its idempotency key for a day; once due again, the worker reads the
// payment's refunds (none) and asks with the second claim's key, and the refund is made.
func TestARefundAnswered500IsAskedAgainWithAnotherKey(t *testing.T) {
	env := startQuiet(t)
	svc, _ := env.CountedService(t)
	env.Stripe.RefuseRefunds("pi_test_1", 500, "api_error", "")
	s := decidedRefund(t, env, svc)
	if made, err := svc.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Retrying: 1}) {
		t.Fatalf("the first attempt: %+v %v", made, err)
	}
	env.Stripe.AllowRefunds("pi_test_1")
	dueAgain(t, env, s.CheckoutID)
	if made, err := svc.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Made: 1}) {
		t.Fatalf("the attempt after the 500: %+v %v", made, err)
	}
	refundKeys(t, env, map[string]int{"podium-refund-" + s.OrderID: 1, "podium-refund-" + s.OrderID + "-2": 1})
	if st, _ := state(t, env, s.CheckoutID); st != "REFUNDED_NO_PLACE" || outboxed(t, env, domain.EventPaymentRefunded) != 1 {
		t.Fatalf("checkout %s, %d payment.refunded", st, outboxed(t, env, domain.EventPaymentRefunded))
	}
}

// TestARefundStripeMadeDespiteItsAnswerIsFound: Stripe made the refund but answered 500 (or
// the answer was lost); the next attempt finds it among the payment's refunds (its metadata
// names the checkout) and records it, asking for no second one.
func TestARefundStripeMadeDespiteItsAnswerIsFound(t *testing.T) {
	env := startQuiet(t)
	svc, _ := env.CountedService(t)
	env.Stripe.RefuseRefunds("pi_test_1", 500, "api_error", "")
	s := decidedRefund(t, env, svc)
	env.Stripe.AddRefund(map[string]any{"id": "re_made_anyway", "payment_intent": "pi_test_1", "status": "succeeded", "amount": 5875,
		"metadata": map[string]any{"checkoutId": s.CheckoutID, "orderId": s.OrderID}})
	if made, err := svc.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Retrying: 1}) {
		t.Fatalf("the first attempt: %+v %v", made, err)
	}
	dueAgain(t, env, s.CheckoutID)
	if made, err := svc.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Made: 1}) {
		t.Fatalf("the attempt after the 500: %+v %v", made, err)
	}
	refundKeys(t, env, map[string]int{"podium-refund-" + s.OrderID: 1})
	var refundID string
	if err := env.Pool.QueryRow(t.Context(), `SELECT refund_id FROM checkouts WHERE id = $1 AND state = 'REFUNDED_NO_PLACE'`, s.CheckoutID).Scan(&refundID); err != nil ||
		refundID != "re_made_anyway" {
		t.Fatalf("refund recorded %q (%v), want the one Stripe made", refundID, err)
	}
}

// TestARefundMadeInTheDashboardIsRecorded: someone refunded the payment in full in Stripe's
// dashboard; Stripe answers checkout's refund charge_already_refunded; the worker finds the
// dashboard's refunds (two parts adding up to the payment) and records the newest as the
// refund made, with payment.refunded: the buyer has the money, and nothing waits for an
// operator.
func TestARefundMadeInTheDashboardIsRecorded(t *testing.T) {
	env := startQuiet(t)
	svc, _ := env.CountedService(t)
	env.Stripe.RefuseRefunds("pi_test_1", 400, "invalid_request_error", "charge_already_refunded")
	env.Stripe.AddRefund(map[string]any{"id": "re_dashboard_1", "payment_intent": "pi_test_1", "status": "succeeded", "amount": 5000, "currency": "eur", "created": 1_800_000_000})
	env.Stripe.AddRefund(map[string]any{"id": "re_dashboard_2", "payment_intent": "pi_test_1", "status": "succeeded", "amount": 875, "currency": "eur", "created": 1_800_000_060})
	counted := checkouttest.Count(t, "checkout.refunds.failed", "code", "charge_already_refunded")
	s := decidedRefund(t, env, svc)
	if made, err := svc.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Made: 1}) {
		t.Fatalf("the refund: %+v %v", made, err)
	}
	var refundID string
	if err := env.Pool.QueryRow(t.Context(), `SELECT refund_id FROM checkouts WHERE id = $1 AND state = 'REFUNDED_NO_PLACE'`, s.CheckoutID).Scan(&refundID); err != nil ||
		refundID != "re_dashboard_2" {
		t.Fatalf("refund recorded %q (%v), want the dashboard's newest", refundID, err)
	}
	if n := checkouttest.Count(t, "checkout.refunds.failed", "code", "charge_already_refunded") - counted; n != 0 || outboxed(t, env, domain.EventPaymentRefunded) != 1 {
		t.Fatalf("%d refusals counted, %d payment.refunded", n, outboxed(t, env, domain.EventPaymentRefunded))
	}
}

// TestALapsedClaimRecordsNothingOverALaterOne: a worker whose call to Stripe outlasts its
// claim's lease is overtaken: another worker claims the refund, Stripe refuses it for good,
// and an operator retries it. When the slow worker's refusal finally comes, it records nothing
// (the refund stays pending, due, with no error) and counts nothing; the refund is then made.
// The slow worker runs on a clock stopped at the decision, so the retried refund is not due
// on it: its pass ends with that one refusal.
func TestALapsedClaimRecordsNothingOverALaterOne(t *testing.T) {
	env := startQuiet(t)
	other, _ := env.CountedService(t)
	s := decidedRefund(t, env, other)
	slowClock := &testkit.Clock{}
	slowClock.Set(env.Clock.Now())
	slow := env.InstanceOn(t, slowClock)
	env.Clock.Advance(time.Minute)
	env.Stripe.RefuseRefunds("pi_test_1", 400, "invalid_request_error", "charge_disputed")
	counted := checkouttest.Count(t, "checkout.refunds.failed", "code", "charge_disputed")
	blocked, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	env.Stripe.Before(checkouttest.RouteRefunds, func(url.Values) {
		if first.CompareAndSwap(false, true) {
			close(blocked)
			<-release
		}
	})
	slowDone := make(chan app.MadeRefunds, 1)
	go func() {
		made, err := slow.MakeDueRefunds(t.Context())
		if err != nil {
			t.Error(err)
		}
		slowDone <- made
	}()
	<-blocked
	if _, err := env.Pool.Exec(t.Context(), `UPDATE checkouts SET refund_claimed_until = now() - interval '1 second' WHERE id = $1`, s.CheckoutID); err != nil {
		t.Fatal(err)
	}
	if made, err := other.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Refused: 1}) {
		t.Fatalf("the second claim: %+v %v", made, err)
	}
	if _, err := other.RetryRefund(t.Context(), s.CheckoutID, ""); err != nil {
		t.Fatal(err)
	}
	close(release)
	if made := <-slowDone; made != (app.MadeRefunds{}) {
		t.Fatalf("the lapsed claim's pass: %+v, want nothing changed", made)
	}
	if r := refundOf(t, env, s.CheckoutID); r.state != "REFUND_PENDING" || r.code != "" || r.attempts != 0 || r.next == nil || r.next.After(env.Clock.Now()) {
		t.Fatalf("after the lapsed claim's refusal: %+v, want the operator's retry kept, due", r)
	}
	if n := checkouttest.Count(t, "checkout.refunds.failed", "code", "charge_disputed") - counted; n != 1 {
		t.Fatalf("counted %d refusals, want the second claim's only", n)
	}
	env.Stripe.AllowRefunds("pi_test_1")
	if made, err := other.MakeDueRefunds(t.Context()); err != nil || made != (app.MadeRefunds{Made: 1}) {
		t.Fatalf("after the operator's retry: %+v %v", made, err)
	}
}

// TestRefundGaugesShowWhatWaits: the refund worker's scan reads the refunds waiting for an
// operator and how long the oldest pending one has waited, on the service's clock.
func TestRefundGaugesShowWhatWaits(t *testing.T) {
	env := start(t, checkouttest.Options{})
	env.Stripe.RefuseRefunds("pi_refused", 400, "invalid_request_error", "charge_disputed")
	refused := opened(t, env, "")
	refused.PaymentIntent = "pi_refused"
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", refused, true), time.Now()), "applied")
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: refused.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: "pi_refused"}
	if err := env.Service.HandleOrderEvent(t.Context(), "msg_refused", e); err != nil {
		t.Fatal(err)
	}
	eventually(t, env, refused.CheckoutID, "REFUND_FAILED")
	env.Stripe.RefundsDown.Store(true)
	decided := env.Clock.Now()
	env.Clock.Set(decided)
	pending := decidedRefund(t, env, env.Service)
	env.Clock.Advance(90 * time.Second)
	testkit.Eventually(t, 30*time.Second, func() string {
		failed, age := checkouttest.Gauge(t, "checkout.refunds.awaiting_operator"), checkouttest.Gauge(t, "checkout.refunds.oldest_pending_age")
		if failed != 1 || age != 90 {
			return fmt.Sprintf("gauges: %v awaiting an operator, oldest pending %vs; want 1 and 90s", failed, age)
		}
		return ""
	})
	if st, _ := state(t, env, pending.CheckoutID); st != "REFUND_PENDING" {
		t.Fatalf("the pending refund is %s", st)
	}
}
