package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// reconcileLock names the lock that lets one instance reconcile at a time.
const reconcileLock = "checkout-reconcile"

// DefaultReconcileLookback is how far back reconciliation lists Stripe's sessions at most
// (its first run, or after an outage of reconciliation itself) unless configured otherwise: a
// session is open 24 hours at most, so whether it was paid or expired is known within them (a
// delayed payment is followed by its checkout); the rest is margin.
const DefaultReconcileLookback = 48 * time.Hour

// markMargin is how far behind the newest listed session the mark stays when no session holds
// it back: a session Stripe created a moment before the newest may show in its list a moment
// later.
const markMargin = time.Minute

// Reconciled counts what a reconciliation saw and settled.
type Reconciled struct {
	// From is the creation time sessions were listed from; Listed is how many were.
	From   time.Time
	Listed int
	// Delayed is how many sessions of checkouts awaiting a delayed payment were read by id.
	Delayed int
	// Paid, Expired, Processing (completed, awaiting a delayed payment) and Failed (a delayed
	// payment that failed) were settled by this run: checkout had not applied their outcome.
	Paid, Expired, Processing, Failed int
	// Mark is the creation time the next run lists from.
	Mark time.Time
}

// Settled is how many outcomes the run applied.
func (r Reconciled) Settled() int { return r.Paid + r.Expired + r.Processing + r.Failed }

// Reconcile lists the Checkout Sessions Stripe created from the reconciliation mark on (at
// most Options.ReconcileLookback back) and applies each outcome checkout has not applied (a
// webhook missed, or acknowledged before the checkout was readable: paid, expired, or completed
// awaiting a delayed payment) through the webhook's own path (settlePayment): the same
// transition, the same message for registration, and a webhook that arrives afterwards is a
// duplicate. The checkouts are read in one query, and only those an outcome could still move.
// The mark then moves up to the oldest session that still holds it back: one of checkout's own
// sessions still open (for its life, which checkout sets: 35 minutes by default, a day at
// most) or whose outcome failed to apply (until it applies); with none, to markMargin before
// the newest listed. Sessions of no checkout (another system's), and those whose checkout is
// not found (a checkout lost for good would hold the mark back for days), are passed. A
// session awaiting a delayed payment (days, for a bank debit) holds nothing: its checkout is
// PROCESSING, and reconcileDelayed reads its session by id. Each settled outcome is counted and
// logged.
//
// Reconcile reconciles live data; ReconcileMode reconciles either mode with its own payment
// provider credentials, mark and checkouts.
func (s *Service) Reconcile(ctx context.Context) (Reconciled, error) {
	return s.ReconcileMode(ctx, true)
}

// ReconcileMode is Reconcile for the checkouts of one mode, through that mode's credentials.
func (s *Service) ReconcileMode(ctx context.Context, livemode bool) (Reconciled, error) {
	pay, err := s.paymentsOf(livemode)
	if err != nil {
		return Reconciled{}, err
	}
	mark, err := s.repo.ReconcileMark(ctx, livemode)
	if err != nil {
		return Reconciled{}, fmt.Errorf("reconcile: %w", err)
	}
	r := Reconciled{From: s.clock.Now().Add(-s.opts.ReconcileLookback), Mark: mark}
	if mark.After(r.From) {
		r.From = mark
	}
	sessions, err := pay.RecentSessions(ctx, r.From)
	if err != nil {
		return r, fmt.Errorf("reconcile: %w", err)
	}
	r.Listed = len(sessions)
	unsettled, err := s.unsettled(ctx, livemode, sessions)
	if err != nil {
		return r, fmt.Errorf("reconcile: %w", err)
	}
	var errs []error
	var held, newest time.Time
	for _, ls := range sessions {
		if ls.Created.After(newest) {
			newest = ls.Created
		}
		pending, err := s.reconcileSession(ctx, ls, unsettled, &r)
		if err != nil {
			errs = append(errs, err)
		}
		if pending && (held.IsZero() || ls.Created.Before(held)) {
			held = ls.Created
		}
	}
	next := newest.Add(-markMargin)
	if !held.IsZero() && held.Before(next) {
		next = held
	}
	if !newest.IsZero() && next.After(mark) {
		if err := s.repo.SetReconcileMark(ctx, livemode, next); err != nil {
			errs = append(errs, err)
		} else {
			r.Mark = next
		}
	}
	errs = append(errs, s.reconcileDelayed(ctx, livemode, pay, &r))
	if err := errors.Join(errs...); err != nil {
		return r, fmt.Errorf("reconcile: %w", err)
	}
	return r, nil
}

// unsettled reads, in one query, the checkouts of the listed sessions that their outcome could
// still move, by id.
func (s *Service) unsettled(ctx context.Context, livemode bool, sessions []domain.ListedSession) (map[string]domain.Checkout, error) {
	var paid, unpaid []string
	for _, ls := range sessions {
		switch {
		case !ls.Ours() || ls.Open():
		case ls.Outcome.Kind == domain.PaymentCompleted && ls.Outcome.Paid:
			paid = append(paid, ls.Outcome.CheckoutID)
		default:
			unpaid = append(unpaid, ls.Outcome.CheckoutID)
		}
	}
	if len(paid)+len(unpaid) == 0 {
		return nil, nil
	}
	found, err := s.repo.UnsettledCheckouts(ctx, livemode, paid, unpaid)
	if err != nil {
		return nil, err
	}
	out := make(map[string]domain.Checkout, len(found))
	for _, c := range found {
		out[c.ID] = c
	}
	return out, nil
}

// reconcileSession applies a listed session's outcome if checkout has not, and reports
// whether the session still holds the mark back: checkout's own session open, or whose outcome
// failed to apply.
func (s *Service) reconcileSession(ctx context.Context, ls domain.ListedSession, unsettled map[string]domain.Checkout, r *Reconciled) (bool, error) {
	if !ls.Ours() {
		return false, nil
	}
	if ls.Open() {
		return true, nil
	}
	c, found := unsettled[ls.Outcome.CheckoutID]
	if !found || !c.Changes(ls.Outcome) {
		return false, nil
	}
	if err := s.reconcileOne(ctx, ls.Outcome, CheckoutRef{ID: c.ID, Livemode: Mode(c.Livemode)}, r); err != nil {
		return true, err
	}
	return false, nil
}

// Reconciliation's reads of delayed payments: a page of delayedPage checkouts a run, and a
// pass that ends after delayedFailuresInARow failed reads (Stripe down, or limiting checkout).
const (
	delayedPage           = 50
	delayedFailuresInARow = 3
)

// delayedCursor is the id after which reconciliation's next page of checkouts awaiting a
// delayed payment starts ("": the first), so that runs take turns over all of them.
type delayedCursor struct {
	mu    sync.Mutex
	after string
}

func (d *delayedCursor) get() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.after
}

func (d *delayedCursor) set(after string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.after = after
}

// reconcileDelayed reads, one by one, the sessions of a page of the checkouts awaiting a
// delayed payment (PROCESSING) and applies each outcome no webhook applied: the payment made,
// or failed. Such sessions hold no mark, since a bank debit may take days: a run reads at most
// delayedPage of them, the next run the page after (back to the first after the last), so what
// a run costs stays bounded however many wait. A session that does not name its checkout is
// left alone; a failed read does not hold the others back, but delayedFailuresInARow of them
// end the pass.
func (s *Service) reconcileDelayed(ctx context.Context, livemode bool, pay Payments, r *Reconciled) error {
	cursor := &s.delayed
	if !livemode {
		cursor = &s.delayedTest
	}
	after := cursor.get()
	waiting, err := s.repo.ProcessingCheckouts(ctx, livemode, after, delayedPage)
	if err != nil {
		return err
	}
	next := ""
	if len(waiting) == delayedPage {
		next = waiting[len(waiting)-1].ID
	}
	var errs []error
	failures := 0
	for i, c := range waiting {
		if ctx.Err() != nil || failures == delayedFailuresInARow {
			next = after // the next run goes on from here
			if i > 0 {
				next = waiting[i-1].ID
			}
			break
		}
		ls, err := pay.Session(ctx, c.SessionID)
		if err != nil {
			failures++
			errs = append(errs, fmt.Errorf("checkout %s: %w", c.ID, err))
			continue
		}
		failures = 0
		r.Delayed++
		if ls.Outcome.CheckoutID != c.ID || !c.Changes(ls.Outcome) {
			continue
		}
		if err := s.reconcileOne(ctx, ls.Outcome, CheckoutRef{ID: c.ID, Livemode: Mode(c.Livemode)}, r); err != nil {
			errs = append(errs, err)
		}
	}
	cursor.set(next)
	return errors.Join(errs...)
}

// reconcileOne settles one session's outcome and counts it.
func (s *Service) reconcileOne(ctx context.Context, ev domain.PaymentEvent, ref CheckoutRef, r *Reconciled) error {
	st, err := s.settlePayment(ctx, ev, Update{Ref: ref})
	if err != nil {
		return fmt.Errorf("session %s: %w", ev.SessionID, err)
	}
	if st.already {
		return nil // a webhook settled it since the checkout was read
	}
	var outcome string
	switch {
	case ev.Kind == domain.PaymentExpired:
		outcome = "expired"
		r.Expired++
	case ev.Kind == domain.PaymentAsyncFailed:
		outcome = "failed"
		r.Failed++
	case ev.Paid:
		outcome = "paid"
		r.Paid++
	default:
		outcome = "processing"
		r.Processing++
	}
	reconciled.Add(ctx, 1, reconcileOutcome(outcome))
	s.log.WarnContext(ctx, "reconciliation settled a Stripe session no webhook had settled",
		"outcome", outcome, "session_id", ev.SessionID, "checkout_id", st.checkout.ID, "order_id", st.checkout.OrderID, "state", string(st.checkout.State))
	return nil
}

// RunReconciler reconciles at once and then every interval until ctx is done, on one
// instance at a time: an instance that finds another reconciling skips its turn.
// Test data is reconciled after live data, with the test credentials, when configured.
func (s *Service) RunReconciler(ctx context.Context, interval time.Duration) error {
	return every(ctx, interval, func(ctx context.Context) {
		for _, livemode := range s.modes() {
			s.reconcileTurn(ctx, livemode)
		}
	})
}

// reconcileTurn reconciles one mode unless another instance does, and logs what it did.
func (s *Service) reconcileTurn(ctx context.Context, livemode bool) {
	var r Reconciled
	lock := reconcileLock
	if !livemode {
		lock += "-test"
	}
	ran, err := s.repo.Exclusively(ctx, lock, func(ctx context.Context) error {
		var err error
		r, err = s.ReconcileMode(ctx, livemode)
		return err
	})
	switch {
	case err != nil && ctx.Err() == nil:
		s.log.ErrorContext(ctx, "reconciliation with Stripe failed; retrying at the next interval", "livemode", livemode, "err", err)
	case ran && r.Settled() > 0:
		s.log.InfoContext(ctx, "reconciliation with Stripe done", "livemode", livemode, "listed_from", r.From, "listed", r.Listed, "delayed", r.Delayed,
			"paid", r.Paid, "expired", r.Expired, "processing", r.Processing, "failed", r.Failed, "mark", r.Mark)
	}
}
