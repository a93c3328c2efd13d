package api_test

import (
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
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

// refundKeysOnly checks that every refund Stripe received carried the order's idempotency key.
func refundKeysOnly(t *testing.T, env *checkouttest.Env, orderID string, calls int) {
	t.Helper()
	keys := env.Stripe.IdempotencyKeys()
	if keys["podium-refund-"+orderID] != calls || env.Stripe.Hits(checkouttest.RouteRefunds) != calls {
		t.Fatalf("%d refund calls, keys %v: want %d, all with podium-refund-%s", env.Stripe.Hits(checkouttest.RouteRefunds), keys, calls, orderID)
	}
}

// TestRefundOfAnUnfulfillableOrderSurvivesAStripeOutage: the refund is decided in the order
// event's transaction (REFUND_PENDING, the use given back) and asked of Stripe outside it,
// while nothing locks the checkout. While Stripe fails, the event fails and every redelivery
// asks again; the sweeper asks too, once the refund is older than its retry delay. Every call
// carries the one idempotency key, so Stripe refunds once; the refund is recorded once with
// one payment.refunded, and a later redelivery asks Stripe nothing more.
func TestRefundOfAnUnfulfillableOrderSurvivesAStripeOutage(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := opened(t, env, "ONCE")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	locks := watchRefundLocks(t, env, s.CheckoutID)
	ctx := t.Context()
	e := domain.OrderEvent{Type: domain.EventOrderUnfulfillable, OrderID: s.OrderID, Reason: "NO_PLACE_LEFT", PaymentRef: "pi_test_1"}

	env.Stripe.RefundsDown.Store(true)
	for range 2 { // the first delivery, then a redelivery
		if err := env.Service.HandleOrderEvent(ctx, "msg_no_place", e); err == nil {
			t.Fatal("the order event succeeded while Stripe refused the refund")
		}
	}
	if st, p := state(t, env, s.CheckoutID); st != "REFUND_PENDING" || p != "RELEASED" || uses(t, env, "ONCE") != 0 {
		t.Fatalf("while Stripe fails: %s, promocode %s; want REFUND_PENDING, RELEASED", st, p)
	}
	if n := outboxed(t, env, domain.EventPaymentRefunded); n != 0 {
		t.Fatalf("%d payment.refunded before any refund", n)
	}
	env.Stripe.RefundsDown.Store(false)
	if err := env.Service.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := state(t, env, s.CheckoutID); st != "REFUND_PENDING" {
		t.Fatalf("the sweeper took a refund decided a moment ago: %s", st)
	}
	env.Clock.Advance(31 * time.Second)
	if err := env.Service.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := state(t, env, s.CheckoutID); st != "REFUNDED_NO_PLACE" {
		t.Fatalf("after the sweep: %s, want REFUNDED_NO_PLACE", st)
	}
	if err := env.Service.HandleOrderEvent(ctx, "msg_no_place", e); err != nil {
		t.Fatal(err)
	}
	refundKeysOnly(t, env, s.OrderID, 3)
	locks.check(t, 3)
	if n := outboxed(t, env, domain.EventPaymentRefunded); n != 1 {
		t.Fatalf("%d payment.refunded, want 1", n)
	}
}

// TestLatePaymentRefundSurvivesAStripeOutage: the webhook of a late payment whose one-use code
// another buyer took decides the refund and answers 500 while Stripe refuses it; Stripe's
// redelivery (the same event, a duplicate for the inbox) asks again and, once Stripe answers,
// records the refund: REFUNDED_NO_PROMOCODE, one payment.refunded, never payment.succeeded.
// Another event of the same payment afterwards asks Stripe nothing.
func TestLatePaymentRefundSurvivesAStripeOutage(t *testing.T) {
	env := start(t, checkouttest.Options{})
	late := opened(t, env, "ONCE")
	env.Clock.Advance(10*time.Minute + time.Second)
	opened(t, env, "ONCE")
	locks := watchRefundLocks(t, env, late.CheckoutID)
	payload := stripeEvent(t, "checkout.session.completed", late, true)

	env.Stripe.RefundsDown.Store(true)
	if r := env.SignedWebhook(t, payload, time.Now()); r.Status != http.StatusInternalServerError {
		t.Fatalf("webhook while Stripe refuses the refund: %d %s, want 500", r.Status, r.Raw)
	}
	if st, p := state(t, env, late.CheckoutID); st != "REFUND_PENDING" || p != "RELEASED" || uses(t, env, "ONCE") != 1 {
		t.Fatalf("refund decided: %s, promocode %s, %d uses; want REFUND_PENDING, RELEASED, the other buyer's 1", st, p, uses(t, env, "ONCE"))
	}
	env.Stripe.RefundsDown.Store(false)
	wantWebhook(t, env.SignedWebhook(t, payload, time.Now()), "duplicate")
	if st, _ := state(t, env, late.CheckoutID); st != "REFUNDED_NO_PROMOCODE" {
		t.Fatalf("after the redelivery: %s, want REFUNDED_NO_PROMOCODE", st)
	}
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.async_payment_succeeded", late, true), time.Now()), "duplicate")
	refundKeysOnly(t, env, late.OrderID, 2)
	locks.check(t, 2)
	if r, p := outboxed(t, env, domain.EventPaymentRefunded), outboxed(t, env, domain.EventPaymentSucceeded); r != 1 || p != 0 {
		t.Fatalf("%d payment.refunded and %d payment.succeeded, want 1 and 0", r, p)
	}
}
