package api_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// listed is a session created at created as Stripe lists it: status complete and paid,
// expired, or open.
func listed(s checkouttest.StripeSession, status string, created time.Time) map[string]any {
	fields := map[string]any{
		"id": s.SessionID, "status": status, "payment_status": "unpaid", "client_reference_id": s.OrderID, "created": created.Unix(),
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
	now := env.Clock.Now()
	for _, s := range []map[string]any{
		listed(missed, "complete", now), listed(lapsed, "expired", now), listed(applied, "complete", now),
		listed(checkouttest.StripeSession{SessionID: "cs_test_elsewhere", CheckoutID: "chk_elsewhere", Currency: "EUR"}, "complete", now),
	} {
		env.Stripe.List(s)
	}

	r, err := env.Service.Reconcile(t.Context())
	if err != nil || r.Listed != 4 || r.Paid != 1 || r.Expired != 1 {
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
	env.Stripe.List(listed(late, "complete", env.Clock.Now()))
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
	env.Stripe.List(listed(s, "complete", env.Clock.Now()))
	testkit.Background(t, func(ctx context.Context) error { return env.Service.RunReconciler(ctx, 20*time.Millisecond) })
	eventually(t, env, s.CheckoutID, "PAID")
	if env.Stripe.Hits(checkouttest.RouteListSessions) < 1 {
		t.Fatal("Stripe was not asked")
	}
}

// TestReconciliationReadsOnlyUnsettledCheckoutsFromItsMark: Stripe lists twelve sessions whose
// payment checkout applied. The first reconciliation lists from the lookback (48 hours) and
// reads the database three times whatever the number of sessions: the mark, the checkouts an
// outcome could still move (none), the new mark, a minute before the newest session. The next
// one lists from that mark only, and is given the newest session alone.
func TestReconciliationReadsOnlyUnsettledCheckoutsFromItsMark(t *testing.T) {
	env := start(t, checkouttest.Options{})
	now := env.Clock.Now().Truncate(time.Second)
	env.Clock.Set(now)
	first := now.Add(-3 * time.Hour)
	const sessions = 12
	for i := range sessions {
		s := opened(t, env, "")
		wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
		env.Stripe.List(listed(s, "complete", first.Add(time.Duration(i)*10*time.Minute)))
	}
	newest := first.Add((sessions - 1) * 10 * time.Minute)
	svc, queries := env.CountedService(t)

	r, err := svc.Reconcile(t.Context())
	if err != nil || r.Listed != sessions || r.Paid+r.Expired != 0 {
		t.Fatalf("reconciliation %+v %v, want %d listed and nothing settled", r, err, sessions)
	}
	if q := env.Stripe.Last(checkouttest.RouteListSessions).Get("created[gte]"); q != strconv.FormatInt(now.Add(-48*time.Hour).Unix(), 10) {
		t.Fatalf("first list from %s, want the lookback's %d", q, now.Add(-48*time.Hour).Unix())
	}
	if n := queries.Count(); n > 3 {
		t.Fatalf("%d queries to reconcile %d settled sessions, want 3 at most", n, sessions)
	}
	queries.Reset()
	r, err = svc.Reconcile(t.Context())
	mark := newest.Add(-time.Minute)
	if q := env.Stripe.Last(checkouttest.RouteListSessions).Get("created[gte]"); err != nil || q != strconv.FormatInt(mark.Unix(), 10) || r.Listed != 1 {
		t.Fatalf("second list from %s, %d sessions (%v); want from %d, a minute before the newest, and the newest only", q, r.Listed, err, mark.Unix())
	}
	if n := queries.Count(); n > 3 {
		t.Fatalf("%d queries for the second reconciliation, want 3 at most", n)
	}
}

// TestReconciliationMarkWaitsForOpenSessions: the mark never passes a session of checkout's
// that is still open, since its payment may come with no webhook; another system's open
// session does not hold it. Once that session's payment is settled (here by reconciliation,
// its webhook lost), the mark moves on to a minute before the newest session.
func TestReconciliationMarkWaitsForOpenSessions(t *testing.T) {
	env := start(t, checkouttest.Options{})
	now := env.Clock.Now().Truncate(time.Second)
	env.Clock.Set(now)
	first := now.Add(-2 * time.Hour)
	paid, open, expired := opened(t, env, ""), opened(t, env, ""), opened(t, env, "")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", paid, true), time.Now()), "applied")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.expired", expired, false), time.Now()), "applied")
	elsewhere := checkouttest.StripeSession{SessionID: "cs_test_elsewhere", Currency: "EUR"}
	list := func(openStatus string) {
		env.Stripe.Unlist()
		env.Stripe.List(listed(paid, "complete", first))
		env.Stripe.List(listed(elsewhere, "open", first.Add(5*time.Minute)))
		env.Stripe.List(listed(open, openStatus, first.Add(10*time.Minute)))
		env.Stripe.List(listed(expired, "expired", first.Add(20*time.Minute)))
	}
	list("open")
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Paid+r.Expired != 0 || !r.Mark.Equal(first.Add(10*time.Minute)) {
		t.Fatalf("reconciliation %+v %v, want the mark at the open session", r, err)
	}
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Listed != 2 || !r.From.Equal(first.Add(10*time.Minute)) {
		t.Fatalf("reconciliation %+v %v, want the open session and those after it listed", r, err)
	}
	list("complete")
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Paid != 1 || !r.Mark.Equal(first.Add(19*time.Minute)) {
		t.Fatalf("reconciliation %+v %v, want the payment settled and the mark a minute before the newest session", r, err)
	}
	if st, _ := state(t, env, open.CheckoutID); st != "PAID" {
		t.Fatalf("the session paid without a webhook left its checkout %s", st)
	}
}
