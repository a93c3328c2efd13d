package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// reconcileLock names the lock that lets one instance reconcile at a time.
const reconcileLock = "checkout-reconcile"

// DefaultReconcileLookback is how far back reconciliation lists Stripe's sessions unless
// configured otherwise: a session lives at most 24 hours, so its outcome is known within them;
// the rest is margin for an outage of reconciliation itself.
const DefaultReconcileLookback = 48 * time.Hour

// Reconciled counts what a reconciliation saw and settled.
type Reconciled struct {
	// Listed sessions had an outcome (paid or expired).
	Listed int
	// Paid and Expired were settled by this run: checkout had not applied their outcome.
	Paid, Expired int
}

// Reconcile lists the Checkout Sessions Stripe created within Options.ReconcileLookback whose
// outcome is known (paid, expired) and settles each whose outcome checkout has not applied (a
// webhook missed, or acknowledged before the checkout was readable) through the webhook's own
// path (settlePayment): the same transition, the same message for registration, and a webhook
// that arrives afterwards is a duplicate. Sessions of checkouts it does not know (another
// system's) are skipped. Each settled outcome is counted and logged.
func (s *Service) Reconcile(ctx context.Context) (Reconciled, error) {
	events, err := s.payments.RecentSessions(ctx, s.clock().Add(-s.opts.ReconcileLookback))
	if err != nil {
		return Reconciled{}, fmt.Errorf("reconcile: %w", err)
	}
	r := Reconciled{Listed: len(events)}
	var errs []error
	for _, ev := range events {
		ref := CheckoutRef{ID: ev.CheckoutID, SessionID: ev.SessionID}
		c, err := s.repo.Checkout(ctx, ref)
		if errors.Is(err, domain.ErrCheckoutNotFound) {
			continue
		}
		if err == nil && !c.Changes(ev) {
			continue
		}
		if err == nil {
			err = s.reconcileOne(ctx, ev, ref, &r)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return r, fmt.Errorf("reconcile: %w", err)
	}
	return r, nil
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
	outcome, attrs := "paid", outcomePaid
	if ev.Kind == domain.PaymentExpired {
		outcome, attrs = "expired", outcomeExpired
		r.Expired++
	} else {
		r.Paid++
	}
	reconciled.Add(ctx, 1, attrs)
	s.log.WarnContext(ctx, "reconciliation settled a Stripe session no webhook had settled",
		"outcome", outcome, "session_id", ev.SessionID, "checkout_id", st.checkout.ID, "order_id", st.checkout.OrderID, "state", string(st.checkout.State))
	return nil
}

// RunReconciler reconciles at once and then every interval until ctx is done, on one
// instance at a time: an instance that finds another reconciling skips its turn.
func (s *Service) RunReconciler(ctx context.Context, interval time.Duration) error {
	return every(ctx, interval, func(ctx context.Context) {
		var r Reconciled
		ran, err := s.repo.Exclusively(ctx, reconcileLock, func(ctx context.Context) error {
			var err error
			r, err = s.Reconcile(ctx)
			return err
		})
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.ErrorContext(ctx, "reconciliation with Stripe failed; retrying at the next interval", "err", err)
		case ran && r.Paid+r.Expired > 0:
			s.log.InfoContext(ctx, "reconciliation with Stripe done", "listed", r.Listed, "paid", r.Paid, "expired", r.Expired)
		}
	})
}
