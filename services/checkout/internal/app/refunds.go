package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// refundLease is how long a claimed refund is its worker's, on the database's clock: well
// above an attempt's bound (refundAttemptTimeout) and its recording, so that no other instance
// makes it meanwhile; a worker that dies lets it go when the lease ends.
const refundLease = 5 * time.Minute

// refundAttemptTimeout bounds an attempt's calls to the payment provider: the payment's
// refunds read, the refund asked for and the refunds read again after "refunded already"
// (6 s each, retried once, at most).
const refundAttemptTimeout = time.Minute

// DefaultRefundScan is how often the refund worker looks for due refunds besides being woken
// by a decision of its own process: refunds decided by other instances or before a restart,
// and the retries of temporary failures.
const DefaultRefundScan = 10 * time.Second

// MadeRefunds counts what a pass of the refund worker changed.
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

// MakeDueRefunds claims the refunds due now one at a time (refunds are rare, and a claim's
// lease covers one attempt) and makes each through the payment provider while no row is
// locked (makeRefund); a failure of one does not hold the others back. A refund another
// instance is making (its claim's lease not ended) is left to it.
func (s *Service) MakeDueRefunds(ctx context.Context) (MadeRefunds, error) {
	var made MadeRefunds
	err := makeEachClaimed(ctx,
		func() (domain.Checkout, bool, error) { return s.repo.ClaimRefund(ctx, s.clock.Now(), refundLease) },
		func(c domain.Checkout) error { return s.makeRefund(ctx, c, &made) })
	if err != nil {
		return made, fmt.Errorf("refunds: %w", err)
	}
	return made, nil
}

// makeEachClaimed claims due work one item at a time and hands each to makeIt until none is
// due or ctx ends; a failure of one item does not hold the others back, a failed claim ends the
// pass.
func makeEachClaimed[T any](ctx context.Context, claim func() (T, bool, error), makeIt func(T) error) error {
	var errs []error
	for ctx.Err() == nil {
		item, ok, err := claim()
		if err != nil {
			errs = append(errs, err)
			break
		}
		if !ok {
			break
		}
		if err := makeIt(item); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// makeRefund obtains the refund the claimed checkout c calls for (obtainRefund) and records
// the outcome in a transaction of its own: the refund with payment.refunded; a temporary
// failure with its next attempt after the backoff; a refusal for good as REFUND_FAILED,
// counted and logged once. A failure is recorded only while c's claim is the latest; an outcome
// not recorded (the database failed) leaves the claim to lapse, and the refund is attempted
// again.
func (s *Service) makeRefund(ctx context.Context, c domain.Checkout, made *MadeRefunds) error {
	attempt, cancel := context.WithTimeout(ctx, refundAttemptTimeout)
	refund, err := s.obtainRefund(attempt, c)
	cancel()
	switch {
	case err != nil && ctx.Err() != nil:
		return nil // stopping: the claim lapses and the refund is attempted again
	case err == nil:
		return s.recordRefund(ctx, c, refund, made)
	}
	var refusal *domain.RefundError
	if !errors.As(err, &refusal) {
		refusal = &domain.RefundError{Message: err.Error()}
	}
	if refusal.Permanent {
		return s.recordRefusal(ctx, c, refusal, made)
	}
	return s.recordRetry(ctx, c, refusal, made)
}

// madeRefund is a refund that returns a checkout's payment.
type madeRefund struct {
	id string
	// found says how it was found among the payment's refunds: RefundNotFound when this
	// attempt asked for it.
	found domain.RefundFound
}

// obtainRefund returns the refund that returns c's payment. The provider keeps its first
// answer to an idempotency key, failures included: so after an earlier attempt
// (c.RefundRetried) the payment's refunds are read first, and one found is the refund;
// otherwise it is asked for with the attempt's key (c.Refund). When the provider answers that
// the payment was refunded already, the refund is looked for again, and the refusal stands if
// none returns the payment.
func (s *Service) obtainRefund(ctx context.Context, c domain.Checkout) (madeRefund, error) {
	if c.RefundRetried() {
		if r, err := s.findRefund(ctx, c); err != nil || r.found != domain.RefundNotFound {
			return r, err
		}
	}
	pay, err := s.paymentsOf(c.Livemode)
	if err != nil {
		return madeRefund{}, &domain.RefundError{Message: err.Error()}
	}
	id, err := pay.Refund(ctx, c.Refund())
	if err == nil {
		return madeRefund{id: id}, nil
	}
	var refusal *domain.RefundError
	if !errors.As(err, &refusal) || !refusal.AlreadyRefunded {
		return madeRefund{}, err
	}
	r, lookErr := s.findRefund(ctx, c)
	switch {
	case lookErr != nil:
		return madeRefund{}, lookErr
	case r.found == domain.RefundNotFound:
		return madeRefund{}, err
	}
	return r, nil
}

// findRefund looks for c's refund among its payment's refunds (domain.RefundAmong).
func (s *Service) findRefund(ctx context.Context, c domain.Checkout) (madeRefund, error) {
	pay, err := s.paymentsOf(c.Livemode)
	if err != nil {
		return madeRefund{}, &domain.RefundError{Message: err.Error()}
	}
	listed, err := pay.Refunds(ctx, c.PaymentIntent)
	if err != nil {
		return madeRefund{}, err
	}
	r, found := c.RefundAmong(listed)
	return madeRefund{id: r.ID, found: found}, nil
}

// recordRefund records the refund made for c, with payment.refunded, and logs it if it changed
// the checkout (another attempt may have recorded it first).
func (s *Service) recordRefund(ctx context.Context, c domain.Checkout, r madeRefund, made *MadeRefunds) error {
	now := s.clock.Now()
	recorded := false
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		msgs := c.Refunded(r.id, now)
		recorded = len(msgs) > 0
		return msgs, nil
	}); err != nil {
		return fmt.Errorf("record refund %s of checkout %s: %w", r.id, c.ID, err)
	}
	if !recorded {
		return nil
	}
	made.Made++
	attrs := []any{"checkout_id", c.ID, "order_id", c.OrderID, "refund_id", r.id, "reason", c.RefundReason}
	switch r.found {
	case domain.RefundFoundInFull:
		s.log.WarnContext(ctx, "a late payment could not be kept, and was refunded in full outside checkout (the dashboard?): that refund is recorded", attrs...)
	case domain.RefundFoundOurs:
		s.log.WarnContext(ctx, "a late payment could not be kept: payment refunded (found made by an earlier attempt)", attrs...)
	default:
		s.log.WarnContext(ctx, "a late payment could not be kept: payment refunded", attrs...)
	}
	return nil
}

// recordRetry records a temporary failure of c's attempt, with its next attempt after the
// backoff, while c's claim is the latest.
func (s *Service) recordRetry(ctx context.Context, c domain.Checkout, refusal *domain.RefundError, made *MadeRefunds) error {
	now := s.clock.Now()
	wait := domain.RefundRetryWait(c.RefundAttempts+1, rand.Float64(), s.opts.RefundRetryMax) //nolint:gosec // jitter needs no cryptographic randomness
	recorded := false
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(cur *domain.Checkout) ([]domain.Message, error) {
		recorded = cur.RefundRetryLater(c.RefundClaim, refusal, now, wait)
		return nil, nil
	}); err != nil {
		return fmt.Errorf("record failed refund attempt of checkout %s: %w", c.ID, err)
	}
	if !recorded {
		return nil
	}
	made.Retrying++
	s.log.WarnContext(ctx, "refund failed for now; retrying after the backoff",
		"checkout_id", c.ID, "order_id", c.OrderID, "attempt", c.RefundAttempts+1, "retry_in", wait.Round(time.Second).String(), "err", refusal.Message)
	return nil
}

// recordRefusal records that the payment provider refused c's refund for good, while c's
// claim is the latest: REFUND_FAILED with its code and message, counted and logged once, for
// an operator to look at (`checkout refunds list`) and retry.
func (s *Service) recordRefusal(ctx context.Context, c domain.Checkout, refusal *domain.RefundError, made *MadeRefunds) error {
	now := s.clock.Now()
	refused := false
	stored, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: c.ID}}, func(cur *domain.Checkout) ([]domain.Message, error) {
		refused = cur.RefundRefused(c.RefundClaim, refusal, now)
		return nil, nil
	})
	if err != nil {
		return fmt.Errorf("record refused refund of checkout %s: %w", c.ID, err)
	}
	if !refused {
		return nil
	}
	made.Refused++
	s.refundFailed(ctx, stored)
	return nil
}

// refundFailed counts in checkout.refunds.failed and logs, once, a checkout whose refund has
// just become REFUND_FAILED: refused for good by the payment provider, or with no payment to
// refund.
func (s *Service) refundFailed(ctx context.Context, c domain.Checkout) {
	refundsFailed.Add(ctx, 1, refundFailedCode(c.RefundErrorCode))
	s.log.ErrorContext(ctx, "a refund failed for good; the checkout is REFUND_FAILED until an operator retries it (checkout refunds list)",
		"checkout_id", c.ID, "order_id", c.OrderID, "payment_intent", c.PaymentIntent, "code", c.RefundErrorCode, "err", c.RefundErrorMessage)
}

// RunRefunder makes the due refunds (MakeDueRefunds, then MakeDueOrderRefunds) at once, whenever this process decides a
// refund, and every scan interval (refunds decided elsewhere or before a restart, retries
// after a temporary failure) until ctx is done. After each pass it reads what waits (the
// refunds failed for good, the oldest pending one) for its gauges, and calls
// Options.RefunderIdle.
func (s *Service) RunRefunder(ctx context.Context, scan time.Duration) error {
	gauges, err := observeRefundBacklog()
	if err != nil {
		return err
	}
	defer gauges.close()
	for {
		if _, err := s.MakeDueRefunds(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "making the due refunds failed; retrying", "err", err)
		}
		s.orderRefundsPass(ctx)
		if b, err := s.repo.RefundBacklog(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "reading the refunds that wait failed; retrying at the next scan", "err", err)
		} else if err == nil {
			gauges.set(b, s.clock.Now())
		}
		if s.opts.RefunderIdle != nil {
			s.opts.RefunderIdle()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.refundsDecided:
		case <-time.After(scan):
		}
	}
}
