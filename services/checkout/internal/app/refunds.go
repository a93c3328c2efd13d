package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// refundLease is how long a claimed refund is its worker's: longer than a Stripe call (6 s,
// retried once) and its recording, so that no other instance makes it meanwhile; a worker
// that dies holding it lets it go when the lease ends.
const refundLease = time.Minute

// refundBatch is how many due refunds one claim takes.
const refundBatch = 20

// DefaultRefundScan is how often the refund worker looks for due refunds besides being woken
// by a decision of its own process: refunds decided by other instances or before a restart,
// and the retries of temporary failures.
const DefaultRefundScan = 10 * time.Second

// MadeRefunds counts what a pass of the refund worker did with the refunds it claimed.
type MadeRefunds struct {
	// Made refunds were recorded; Retrying failed for now and are due again after their
	// backoff; Refused were refused for good (REFUND_FAILED).
	Made, Retrying, Refused int
}

// refundDecided wakes this process's refund worker: a transaction that decided a refund has
// committed, and nothing waits for the refund to be made.
func (s *Service) refundDecided() {
	select {
	case s.refundsDecided <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// MakeDueRefunds claims the refunds due now, a batch at a time, and makes each through the
// payment provider while no row is locked (makeRefund); a failure of one does not hold the
// others back. A refund another instance is making (its claim's lease not ended) is left to
// it.
func (s *Service) MakeDueRefunds(ctx context.Context) (MadeRefunds, error) {
	var made MadeRefunds
	var errs []error
	for ctx.Err() == nil {
		now := s.clock()
		due, err := s.repo.ClaimRefunds(ctx, now, now.Add(refundLease), refundBatch)
		if err != nil {
			errs = append(errs, err)
			break
		}
		for _, c := range due {
			if err := s.makeRefund(ctx, c, &made); err != nil {
				errs = append(errs, err)
			}
		}
		if len(due) < refundBatch {
			break
		}
	}
	if err := errors.Join(errs...); err != nil {
		return made, fmt.Errorf("refunds: %w", err)
	}
	return made, nil
}

// makeRefund asks the payment provider for the refund the claimed checkout c calls for, with
// the idempotency key the refund names (every attempt, from any instance, gets the first one's
// refund, never a second one), and records the outcome in a transaction of its own: the refund
// with payment.refunded; a temporary failure with its next attempt after the backoff; a
// refusal for good as REFUND_FAILED, counted and logged once. An outcome not recorded (the
// database failed) leaves the claim to lapse, and the refund is attempted again.
func (s *Service) makeRefund(ctx context.Context, c domain.Checkout, made *MadeRefunds) error {
	refundID, err := s.payments.Refund(ctx, c.Refund())
	if err != nil && ctx.Err() != nil {
		return nil // stopping: the claim lapses and the refund is attempted again
	}
	if err == nil {
		return s.recordRefund(ctx, c, refundID, made)
	}
	var refusal *domain.RefundError
	if !errors.As(err, &refusal) {
		refusal = &domain.RefundError{Message: err.Error()}
	}
	if refusal.Permanent {
		return s.recordRefusal(ctx, c, refusal, made)
	}
	now := s.clock()
	wait := domain.RefundRetryWait(c.RefundAttempts+1, rand.Float64()) //nolint:gosec // jitter needs no cryptographic randomness
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.RefundRetryLater(refusal, now, wait)
		return nil, nil
	}); err != nil {
		return fmt.Errorf("record failed refund attempt of checkout %s: %w", c.ID, err)
	}
	made.Retrying++
	s.log.WarnContext(ctx, "refund failed for now; retrying after the backoff",
		"checkout_id", c.ID, "order_id", c.OrderID, "attempt", c.RefundAttempts+1, "retry_in", wait.Round(time.Second).String(), "err", refusal.Message)
	return nil
}

// recordRefund records the refund made for c, with payment.refunded.
func (s *Service) recordRefund(ctx context.Context, c domain.Checkout, refundID string, made *MadeRefunds) error {
	now := s.clock()
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		return c.Refunded(refundID, now), nil
	}); err != nil {
		return fmt.Errorf("record refund %s of checkout %s: %w", refundID, c.ID, err)
	}
	made.Made++
	s.log.WarnContext(ctx, "a late payment could not be kept: payment refunded",
		"checkout_id", c.ID, "order_id", c.OrderID, "refund_id", refundID, "reason", c.RefundReason)
	return nil
}

// recordRefusal records that the payment provider refused c's refund for good: REFUND_FAILED
// with its code and message, counted in checkout.refunds.failed and logged once, for an
// operator to look at (`checkout refunds list`) and retry.
func (s *Service) recordRefusal(ctx context.Context, c domain.Checkout, refusal *domain.RefundError, made *MadeRefunds) error {
	now := s.clock()
	refused := false
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		refused = c.RefundRefused(refusal, now)
		return nil, nil
	}); err != nil {
		return fmt.Errorf("record refused refund of checkout %s: %w", c.ID, err)
	}
	if !refused {
		return nil // another attempt recorded the refund's outcome first
	}
	made.Refused++
	refundsFailed.Add(ctx, 1, refundFailedCode(refusal.Code))
	s.log.ErrorContext(ctx, "the payment provider refused a refund for good; the checkout is REFUND_FAILED until an operator retries it (checkout refunds list)",
		"checkout_id", c.ID, "order_id", c.OrderID, "payment_intent", c.PaymentIntent, "code", refusal.Code, "err", refusal.Message)
	return nil
}

// RunRefunder makes the due refunds (MakeDueRefunds) at once, whenever this process decides a
// refund, and every scan interval (refunds decided elsewhere or before a restart, retries
// after a temporary failure) until ctx is done.
func (s *Service) RunRefunder(ctx context.Context, scan time.Duration) error {
	for {
		if _, err := s.MakeDueRefunds(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "making the due refunds failed; retrying", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.refundsDecided:
		case <-time.After(scan):
		}
	}
}
