package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// listed is a session as Stripe lists it once settled: status complete and paid, or expired.
func listed(s checkouttest.StripeSession, status string) map[string]any {
	fields := map[string]any{
		"id": s.SessionID, "status": status, "payment_status": "unpaid", "client_reference_id": s.OrderID,
		"metadata":       map[string]any{"checkoutId": s.CheckoutID, "orderId": s.OrderID, "eventId": s.EventID, "organizerId": s.OrganizerID},
		"payment_intent": nil, "amount_total": s.Amount, "currency": strings.ToLower(s.Currency),
	}
	if status == "complete" {
		fields["payment_status"], fields["payment_intent"] = "paid", s.PaymentIntent
	}
	return fields
}

// TestReconciliationSettlesWhatNoWebhookDid: Stripe lists a paid session whose webhook never
// arrived, an expired one, one whose webhook was applied and another system's. Reconciliation
// settles the first two through the webhook's path (PAID with payment.succeeded, EXPIRED with
// payment.failed), counts them, and leaves the others alone; running it again settles
// nothing, and the webhook that finally arrives is a duplicate.
func TestReconciliationSettlesWhatNoWebhookDid(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	paidBefore := checkouttest.Count(t, "checkout.reconcile.settled", "outcome", "paid")
	expiredBefore := checkouttest.Count(t, "checkout.reconcile.settled", "outcome", "expired")
	missed, lapsed, applied := opened(t, env, ""), opened(t, env, "ONCE"), opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", applied, true), time.Now()), "applied")
	next(t, events)
	for _, s := range []map[string]any{
		listed(missed, "complete"), listed(lapsed, "expired"), listed(applied, "complete"),
		listed(checkouttest.StripeSession{SessionID: "cs_test_elsewhere", CheckoutID: "chk_elsewhere", Currency: "EUR"}, "complete"),
	} {
		env.Stripe.List(s)
	}

	r, err := env.Service.Reconcile(t.Context())
	if err != nil || r != (app.Reconciled{Listed: 4, Paid: 1, Expired: 1}) {
		t.Fatalf("reconciliation %+v %v, want 4 listed, 1 paid and 1 expired settled", r, err)
	}
	if st, _ := state(t, env, missed.CheckoutID); st != "PAID" {
		t.Fatalf("the missed payment's checkout is %s", st)
	}
	if st, p := state(t, env, lapsed.CheckoutID); st != "EXPIRED" || p != "RELEASED" {
		t.Fatalf("the expired session's checkout is %s (promocode %s)", st, p)
	}
	got := map[string]string{}
	for range 2 {
		m := next(t, events)
		got[m.Key] = m.Headers[broker.HeaderType]
	}
	if got[missed.OrderID] != domain.EventPaymentSucceeded || got[lapsed.OrderID] != domain.EventPaymentFailed {
		t.Fatalf("messages %v", got)
	}
	if p, e := checkouttest.Count(t, "checkout.reconcile.settled", "outcome", "paid")-paidBefore,
		checkouttest.Count(t, "checkout.reconcile.settled", "outcome", "expired")-expiredBefore; p != 1 || e != 1 {
		t.Fatalf("counted %d paid and %d expired, want 1 and 1", p, e)
	}
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Paid+r.Expired != 0 {
		t.Fatalf("a second reconciliation settled %+v %v", r, err)
	}
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", missed, true), time.Now()), "duplicate")
	quiet(t, env, events, missed.OrderID, lapsed.OrderID, applied.OrderID)
}

// TestReconciledLatePaymentIsRefunded: a payment after the hold lapsed whose one-use code
// another buyer took, found by reconciliation, takes the webhook's path to the end: the refund
// decided, then made by the refund worker, REFUNDED_NO_PROMOCODE, payment.refunded.
func TestReconciledLatePaymentIsRefunded(t *testing.T) {
	env := start(t, checkouttest.Options{})
	late := opened(t, env, "ONCE")
	env.Clock.Advance(10*time.Minute + time.Second)
	opened(t, env, "ONCE")
	env.Stripe.List(listed(late, "complete"))
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Paid != 1 {
		t.Fatalf("reconciliation %+v %v", r, err)
	}
	eventually(t, env, late.CheckoutID, "REFUNDED_NO_PROMOCODE")
	if st, _ := state(t, env, late.CheckoutID); st != "REFUNDED_NO_PROMOCODE" || env.Stripe.Hits(checkouttest.RouteRefunds) != 1 ||
		outboxed(t, env, domain.EventPaymentRefunded) != 1 || outboxed(t, env, domain.EventPaymentSucceeded) != 0 {
		t.Fatalf("checkout %s, %d refunds", st, env.Stripe.Hits(checkouttest.RouteRefunds))
	}
}

// TestReconcilerRunsInTheBackground: the service's reconciler lists Stripe's sessions at
// start and then every interval, and settles a missed payment without anyone asking.
func TestReconcilerRunsInTheBackground(t *testing.T) {
	env := start(t, checkouttest.Options{})
	s := opened(t, env, "")
	env.Stripe.List(listed(s, "complete"))
	testkit.Background(t, func(ctx context.Context) error { return env.Service.RunReconciler(ctx, 20*time.Millisecond) })
	eventually(t, env, s.CheckoutID, "PAID")
	if env.Stripe.Hits(checkouttest.RouteListSessions) < 1 {
		t.Fatal("Stripe was not asked")
	}
}
