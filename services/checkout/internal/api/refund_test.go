package api_test

import (
	"fmt"
	"maps"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// lockFree records, at every refund Stripe receives, whether the checkout's row could be
// locked at that moment (SELECT … FOR UPDATE NOWAIT): a refund made inside a transaction that
// holds the row would fail that.
type lockFree struct {
	mu     sync.Mutex
	calls  int
	locked []error
}

func watchRefundLocks(t *testing.T, env *checkouttest.Env, checkoutID string) *lockFree {
	w := &lockFree{}
	env.Stripe.Before(checkouttest.RouteRefunds, func(url.Values) {
		ctx := t.Context()
		tx, err := env.Pool.Begin(ctx)
		if err == nil {
			_, err = tx.Exec(ctx, `SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE NOWAIT`, checkoutID)
			_ = tx.Rollback(ctx)
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.calls++
		if err != nil {
			w.locked = append(w.locked, err)
		}
	})
	return w
}

func (w *lockFree) check(t *testing.T, minCalls int) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.calls < minCalls || len(w.locked) > 0 {
		t.Fatalf("%d refund calls (want at least %d); the checkout's row was locked during %d of them: %v", w.calls, minCalls, len(w.locked), w.locked)
	}
}

// outboxed counts the messages of a type written to the outbox (no relay runs).
func outboxed(t *testing.T, env *checkouttest.Env, typ string) int {
	t.Helper()
	return count(t, env, `SELECT count(*) FROM outbox WHERE headers->>$1 = $2`, broker.HeaderType, typ)
}

// refundKeys checks the idempotency keys of the refunds Stripe received (how often each was
// sent): the first attempt's is podium-refund-<orderId>, a later claim's has its number.
func refundKeys(t *testing.T, env *checkouttest.Env, want map[string]int) {
	t.Helper()
	got, calls := map[string]int{}, 0
	for k, n := range env.Stripe.IdempotencyKeys() {
		if strings.HasPrefix(k, domain.RefundIdempotencyPrefix) {
			got[k] = n
		}
	}
	for _, n := range want {
		calls += n
	}
	if !maps.Equal(got, want) || env.Stripe.Hits(checkouttest.RouteRefunds) != calls {
		t.Fatalf("%d refund calls with keys %v, want %v", env.Stripe.Hits(checkouttest.RouteRefunds), got, want)
	}
}

// refundState is what a checkout records of its refund.
type refundState struct {
	state, code, message string
	attempts             int
	next, failedAt       *time.Time
}

func refundOf(t *testing.T, env *checkouttest.Env, checkoutID string) refundState {
	t.Helper()
	var r refundState
	var code, message *string
	if err := env.Pool.QueryRow(t.Context(), `SELECT state, refund_attempts, refund_next_attempt_at, refund_error_code, refund_error_message, refund_failed_at
		FROM checkouts WHERE id = $1`, checkoutID).Scan(&r.state, &r.attempts, &r.next, &code, &message, &r.failedAt); err != nil {
		t.Fatal(err)
	}
	if code != nil {
		r.code = *code
	}
	if message != nil {
		r.message = *message
	}
	return r
}

// TestRefundOfAnUnfulfillableOrderSurvivesAStripeOutage: the order event decides the refund
// (REFUND_PENDING, the use given back) and is done, while Stripe is down; the refund worker,
// woken by the decision, asks Stripe while nothing locks the checkout, fails for now and
// records the attempt, its error and the next attempt after the backoff. On the service's
// clock, nothing is asked before then; once it is due and Stripe is back, the payment's refunds
// are read (none) and the refund is asked with the second claim's key (Stripe gives the first
// key's 503 again for a day), recorded once with one payment.refunded, and a redelivery of the
// event asks Stripe nothing more.
func TestRefundOfAnUnfulfillableOrderSurvivesAStripeOutage(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := opened(t, env, "ONCE")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	locks := watchRefundLocks(t, env, s.CheckoutID)
	ctx := t.Context()
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: s.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: "pi_test_1"}
	decided := env.Clock.Now()
	env.Clock.Set(decided) // from here the service's clock moves only when the test moves it

	env.Stripe.RefundsDown.Store(true)
	for range 2 { // the first delivery, then a redelivery
		if err := env.Service.HandleOrderEvent(ctx, "msg_no_place", e); err != nil {
			t.Fatalf("the order event waited on Stripe: %v", err)
		}
	}
	testkit.Eventually(t, 30*time.Second, func() string {
		if r := refundOf(t, env, s.CheckoutID); r.attempts != 1 {
			return fmt.Sprintf("%d refund attempts recorded, want 1", r.attempts)
		}
		return ""
	})
	r := refundOf(t, env, s.CheckoutID)
	if _, p := state(t, env, s.CheckoutID); r.state != "REFUND_PENDING" || p != "RELEASED" || uses(t, env, "ONCE") != 0 ||
		!strings.Contains(r.message, "HTTP 503") || r.failedAt != nil {
		t.Fatalf("while Stripe fails: %+v, promocode %s; want REFUND_PENDING with the error, RELEASED", r, p)
	}
	if wait := r.next.Sub(decided); wait < domain.RefundFirstRetry/2 || wait > domain.RefundFirstRetry {
		t.Fatalf("next attempt %s after the decision, want from %s to %s", wait, domain.RefundFirstRetry/2, domain.RefundFirstRetry)
	}
	if made, err := env.Service.MakeDueRefunds(ctx); err != nil || made != (app.MadeRefunds{}) || env.Stripe.Hits(checkouttest.RouteRefunds) != 1 {
		t.Fatalf("a pass before the backoff ended: %+v %v, %d calls", made, err, env.Stripe.Hits(checkouttest.RouteRefunds))
	}
	if n := outboxed(t, env, domain.EventPaymentRefunded); n != 0 {
		t.Fatalf("%d payment.refunded before any refund", n)
	}
	env.Stripe.RefundsDown.Store(false)
	env.Clock.Set(*r.next)
	eventually(t, env, s.CheckoutID, "REFUNDED_NO_PLACE")
	if err := env.Service.HandleOrderEvent(ctx, "msg_no_place", e); err != nil {
		t.Fatal(err)
	}
	refundKeys(t, env, map[string]int{"podium-refund-" + s.OrderID: 1, "podium-refund-" + s.OrderID + "-2": 1})
	if n := env.Stripe.Hits(checkouttest.RouteListRefunds); n != 1 {
		t.Fatalf("the payment's refunds read %d times, want once, before the second attempt", n)
	}
	locks.check(t, 2)
	if n := outboxed(t, env, domain.EventPaymentRefunded); n != 1 {
		t.Fatalf("%d payment.refunded, want 1", n)
	}
}

// startQuiet starts the service with a refund worker that scans once an hour, and returns once
// its first pass ended: from then on it makes a refund only when its process decides one.
func startQuiet(t *testing.T) *checkouttest.Env {
	t.Helper()
	idle := make(chan struct{}, 1)
	env := start(t, checkouttest.Options{RefundScan: time.Hour, RefunderIdle: func() {
		select {
		case idle <- struct{}{}:
		default:
		}
	}})
	select {
	case <-idle:
	case <-time.After(30 * time.Second):
		t.Fatal("the refund worker's first pass did not end within 30s")
	}
	return env
}

// TestARefundDecidedIsMadeAtOnce: the refund worker of the process that decided a refund is
// woken by the decision; it does not wait for its next scan (an hour here). The decision comes
// after the worker's first pass, so that pass cannot make it.
func TestARefundDecidedIsMadeAtOnce(t *testing.T) {
	env := startQuiet(t)
	s := opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: s.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: "pi_test_1"}
	if err := env.Service.HandleOrderEvent(t.Context(), "msg_no_place", e); err != nil {
		t.Fatal(err)
	}
	eventually(t, env, s.CheckoutID, "REFUNDED_NO_PLACE")
	refundKeys(t, env, map[string]int{"podium-refund-" + s.OrderID: 1})
}

// TestLatePaymentRefundSurvivesAStripeOutage: the webhook of a late payment whose one-use code
// another buyer took decides the refund and is acknowledged at once while Stripe refuses it;
// Stripe's redelivery (the same event) is a duplicate. The refund worker makes the refund
// once Stripe answers and its backoff ended: REFUNDED_NO_PROMOCODE, one payment.refunded, never
// payment.succeeded. Another event of the same payment afterwards asks Stripe nothing.
func TestLatePaymentRefundSurvivesAStripeOutage(t *testing.T) {
	env := start(t, checkouttest.Options{})
	late := opened(t, env, "ONCE")
	env.Clock.Advance(10*time.Minute + time.Second)
	opened(t, env, "ONCE")
	locks := watchRefundLocks(t, env, late.CheckoutID)
	payload := stripeEvent(t, "checkout.session.completed", late, true)

	env.Stripe.RefundsDown.Store(true)
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "applied")
	if st, p := state(t, env, late.CheckoutID); st != "REFUND_PENDING" || p != "RELEASED" || uses(t, env, "ONCE") != 1 {
		t.Fatalf("refund decided: %s, promocode %s, %d uses; want REFUND_PENDING, RELEASED, the other buyer's 1", st, p, uses(t, env, "ONCE"))
	}
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "duplicate")
	testkit.Eventually(t, 30*time.Second, func() string {
		if r := refundOf(t, env, late.CheckoutID); r.attempts != 1 {
			return fmt.Sprintf("%d refund attempts recorded, want 1", r.attempts)
		}
		return ""
	})
	env.Stripe.RefundsDown.Store(false)
	env.Clock.Advance(domain.RefundFirstRetry)
	eventually(t, env, late.CheckoutID, "REFUNDED_NO_PROMOCODE")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_succeeded", late, true), time.Now()), "duplicate")
	refundKeys(t, env, map[string]int{"podium-refund-" + late.OrderID: 1, "podium-refund-" + late.OrderID + "-2": 1})
	locks.check(t, 2)
	if r, p := outboxed(t, env, domain.EventPaymentRefunded), outboxed(t, env, domain.EventPaymentSucceeded); r != 1 || p != 0 {
		t.Fatalf("%d payment.refunded and %d payment.succeeded, want 1 and 0", r, p)
	}
}
