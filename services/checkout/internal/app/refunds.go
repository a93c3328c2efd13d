package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// refundRetryAfter is how long a pending refund is left to the delivery that decided it
// before the sweeper makes it: a refund decided a moment ago is being made right now.
const refundRetryAfter = 30 * time.Second

// refundIfPending makes the refund of a checkout whose refund was decided and not made yet.
// c is the checkout as an Update left it; for a duplicate message (which ran nothing, so
// returns no checkout) the checkout is read by ref, since the delivery that decided the refund
// may have failed to make it.
func (s *Service) refundIfPending(ctx context.Context, c domain.Checkout, outcome Outcome, ref CheckoutRef) (domain.Checkout, error) {
	switch outcome {
	case CheckoutNotKnown:
		return c, nil
	case MessageAlreadyProcessed:
		var err error
		if c, err = s.repo.Checkout(ctx, ref); errors.Is(err, domain.ErrCheckoutNotFound) {
			return c, nil
		} else if err != nil {
			return c, err
		}
	}
	if !c.RefundPending() {
		return c, nil
	}
	return s.makeRefund(ctx, c)
}

// makeRefund makes the refund the pending checkout c calls for through the payment provider,
// outside any transaction, with the idempotency key the refund names (a retry, from a
// redelivery or the sweeper, gets the first call's refund, never a second one), then records
// it with payment.refunded in a transaction of its own. A failed call leaves the refund
// pending.
func (s *Service) makeRefund(ctx context.Context, c domain.Checkout) (domain.Checkout, error) {
	refundID, err := s.payments.Refund(ctx, c.Refund())
	if err != nil {
		return c, fmt.Errorf("refund of checkout %s: %w", c.ID, err)
	}
	c, _, err = s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		return c.Refunded(refundID, s.clock()), nil
	})
	if err != nil {
		return c, fmt.Errorf("record refund %s of checkout %s: %w", refundID, c.ID, err)
	}
	s.log.WarnContext(ctx, "a late payment could not be kept: payment refunded",
		"checkout_id", c.ID, "order_id", c.OrderID, "refund_id", refundID, "reason", c.RefundReason)
	return c, nil
}

// retryRefunds makes the refunds still pending a while after they were decided (their Stripe
// call failed, or their process stopped before it); one failing does not hold the others
// back, and every failure is returned, to be tried again at the next sweep.
func (s *Service) retryRefunds(ctx context.Context, now time.Time) error {
	ids, err := s.repo.PendingRefunds(ctx, now.Add(-refundRetryAfter))
	if err != nil {
		return fmt.Errorf("pending refunds: %w", err)
	}
	var errs []error
	for _, id := range ids {
		c, err := s.repo.Checkout(ctx, CheckoutRef{ID: id})
		if err == nil && c.RefundPending() {
			_, err = s.makeRefund(ctx, c)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
