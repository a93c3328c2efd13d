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
// reads the database four times whatever the number of sessions: the mark, the checkouts an
// outcome could still move (none), the new mark, a minute before the newest session, and the
// checkouts awaiting a delayed payment (none). The next one lists from that mark only, and is
// given the newest session alone.
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
	if n := queries.Count(); n > 4 {
		t.Fatalf("%d queries to reconcile %d settled sessions, want 4 at most", n, sessions)
	}
	queries.Reset()
	r, err = svc.Reconcile(t.Context())
	mark := newest.Add(-time.Minute)
	if q := env.Stripe.Last(checkouttest.RouteListSessions).Get("created[gte]"); err != nil || q != strconv.FormatInt(mark.Unix(), 10) || r.Listed != 1 {
		t.Fatalf("second list from %s, %d sessions (%v); want from %d, a minute before the newest, and the newest only", q, r.Listed, err, mark.Unix())
	}
	if n := queries.Count(); n > 4 {
		t.Fatalf("%d queries for the second reconciliation, want 4 at most", n)
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

// withSession gives s a session id of its own (stripe-mock gives every session the same one),
// in checkout's record too.
func withSession(t *testing.T, env *checkouttest.Env, s checkouttest.StripeSession, id string) checkouttest.StripeSession {
	t.Helper()
	if _, err := env.Pool.Exec(t.Context(), `UPDATE checkouts SET session_id = $2 WHERE id = $1`, s.CheckoutID, id); err != nil {
		t.Fatal(err)
	}
	s.SessionID = id
	return s
}

// TestDelayedPaymentsHoldNoMark: sessions completed with a delayed payment method (a bank
// debit may take days) do not hold the mark back: the mark moves a minute before the newest
// session although two of them still await their payment, one whose completion no webhook
// reported (its checkout moved to PROCESSING by the listing). Their checkouts are followed by
// reading their sessions by id, a read each per run, however old: once Stripe says one was
// paid and the other's payment failed (its payment intent needs another payment method), with
// no webhook, the next run settles both (PAID with payment.succeeded, PAYMENT_FAILED with
// payment.failed) and counts them.
func TestDelayedPaymentsHoldNoMark(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	now := env.Clock.Now().Truncate(time.Second)
	env.Clock.Set(now)
	first := now.Add(-2 * time.Hour)
	debit := withSession(t, env, opened(t, env, ""), "cs_test_debit")
	lost := withSession(t, env, opened(t, env, ""), "cs_test_lost")
	paid := withSession(t, env, opened(t, env, ""), "cs_test_paid")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", debit, false), time.Now()), "applied")
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", paid, true), time.Now()), "applied")
	if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded {
		t.Fatalf("message %v", m.Headers)
	}
	processing := checkouttest.Count(t, "checkout.reconcile.settled", "outcome", "processing")
	awaiting := func(s checkouttest.StripeSession, created time.Time, pi map[string]any) map[string]any {
		f := listed(s, "complete", created)
		f["payment_status"], f["payment_intent"] = "unpaid", pi
		return f
	}
	env.Stripe.List(awaiting(debit, first, map[string]any{"id": "pi_debit", "object": "payment_intent", "status": "processing"}))
	env.Stripe.List(awaiting(lost, first.Add(10*time.Minute), map[string]any{"id": "pi_lost", "object": "payment_intent", "status": "processing"}))
	env.Stripe.List(listed(paid, "complete", first.Add(20*time.Minute)))

	r, err := env.Service.Reconcile(t.Context())
	if err != nil || r.Processing != 1 || r.Paid+r.Expired+r.Failed != 0 || r.Delayed != 2 || !r.Mark.Equal(first.Add(19*time.Minute)) {
		t.Fatalf("reconciliation %+v %v, want the lost completion applied, both delayed sessions read and the mark a minute before the newest", r, err)
	}
	if n := checkouttest.Count(t, "checkout.reconcile.settled", "outcome", "processing") - processing; n != 1 {
		t.Fatalf("counted %d completions awaiting a payment, want 1", n)
	}
	for _, s := range []checkouttest.StripeSession{debit, lost} {
		if st, _ := state(t, env, s.CheckoutID); st != "PROCESSING" {
			t.Fatalf("checkout %s is %s, want PROCESSING", s.CheckoutID, st)
		}
	}

	env.Stripe.Unlist()
	debitPaid := listed(debit, "complete", first)
	debitPaid["payment_intent"] = map[string]any{"id": "pi_debit", "object": "payment_intent", "status": "succeeded"}
	env.Stripe.List(debitPaid)
	env.Stripe.List(awaiting(lost, first.Add(10*time.Minute), map[string]any{"id": "pi_lost", "object": "payment_intent", "status": "requires_payment_method"}))
	env.Clock.Advance(3 * 24 * time.Hour) // days later: the sessions are far behind the mark and the lookback
	r, err = env.Service.Reconcile(t.Context())
	if err != nil || r.Paid != 1 || r.Failed != 1 || r.Delayed != 2 || r.Listed != 0 {
		t.Fatalf("reconciliation %+v %v, want the delayed payment settled paid and the other failed, read by id", r, err)
	}
	if st, _ := state(t, env, debit.CheckoutID); st != "PAID" {
		t.Fatalf("the paid bank debit's checkout is %s", st)
	}
	if st, _ := state(t, env, lost.CheckoutID); st != "PAYMENT_FAILED" {
		t.Fatalf("the failed bank debit's checkout is %s", st)
	}
	got := map[string]string{}
	for range 2 {
		m := next(t, events)
		got[m.Key] = m.Headers[broker.HeaderType]
	}
	if got[debit.OrderID] != domain.EventPaymentSucceeded || got[lost.OrderID] != domain.EventPaymentFailed {
		t.Fatalf("messages %v", got)
	}
	if r, err := env.Service.Reconcile(t.Context()); err != nil || r.Delayed != 0 || r.Settled() != 0 {
		t.Fatalf("a run once nothing awaits a delayed payment: %+v %v", r, err)
	}
}

// TestAFailedSettleHoldsTheMark: a paid session whose outcome fails to apply (its checkout's
// update fails in the database) holds the mark at its creation, while the session after it is
// settled; the next run lists from it again and settles it.
func TestAFailedSettleHoldsTheMark(t *testing.T) {
	env := start(t, checkouttest.Options{})
	now := env.Clock.Now().Truncate(time.Second)
	env.Clock.Set(now)
	first := now.Add(-time.Hour)
	failing, settled := opened(t, env, ""), opened(t, env, "")
	env.Stripe.List(listed(failing, "complete", first))
	env.Stripe.List(listed(settled, "complete", first.Add(10*time.Minute)))
	for _, stmt := range []string{
		`CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'update refused for the test'; END $$`,
		`CREATE TRIGGER refuse_update BEFORE UPDATE ON checkouts FOR EACH ROW WHEN (OLD.id = '` + failing.CheckoutID + `') EXECUTE FUNCTION refuse_update()`,
	} {
		if _, err := env.Pool.Exec(t.Context(), stmt); err != nil {
			t.Fatal(err)
		}
	}

	r, err := env.Service.Reconcile(t.Context())
	if err == nil || !strings.Contains(err.Error(), "update refused for the test") || r.Paid != 1 || !r.Mark.Equal(first) {
		t.Fatalf("reconciliation %+v %v, want the later session settled, the failure returned and the mark at the failed session", r, err)
	}
	if st, _ := state(t, env, failing.CheckoutID); st != "OPEN" {
		t.Fatalf("the checkout whose update failed is %s", st)
	}
	if _, err := env.Pool.Exec(t.Context(), `DROP TRIGGER refuse_update ON checkouts`); err != nil {
		t.Fatal(err)
	}
	r, err = env.Service.Reconcile(t.Context())
	if err != nil || !r.From.Equal(first) || r.Paid != 1 || !r.Mark.Equal(first.Add(9*time.Minute)) {
		t.Fatalf("the next reconciliation %+v %v, want it listed from the failed session, settled, the mark a minute before the newest", r, err)
	}
	if st, _ := state(t, env, failing.CheckoutID); st != "PAID" {
		t.Fatalf("the checkout is %s after the next run", st)
	}
}

// TestDelayedPaymentsAreReadAPageARun: however many checkouts await a delayed payment, a
// reconciliation reads the sessions of one page of them (50), the next run the page after, and
// after the last page the first again: what a run costs Stripe stays bounded, and every one is
// read in turn.
func TestDelayedPaymentsAreReadAPageARun(t *testing.T) {
	env := start(t, checkouttest.Options{})
	first := withSession(t, env, opened(t, env, ""), "cs_test_delayed_0")
	if _, err := env.Pool.Exec(t.Context(), `UPDATE checkouts SET state = 'PROCESSING' WHERE id = $1`, first.CheckoutID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Pool.Exec(t.Context(), `INSERT INTO checkouts
		SELECT r.* FROM checkouts c, generate_series(1, 119) g,
			jsonb_populate_record(null::checkouts, to_jsonb(c) || jsonb_build_object('id', c.id || '_' || g, 'session_id', 'cs_test_delayed_' || g,
				'order_id', c.order_id || '_' || g, 'idempotency_key', null)) r
		WHERE c.id = $1`, first.CheckoutID); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{50, 50, 20, 50} {
		r, err := env.Service.Reconcile(t.Context())
		if err != nil || r.Delayed != want {
			t.Fatalf("run %d: %d delayed sessions read (%v), want %d", i+1, r.Delayed, err, want)
		}
	}
}
