package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// MakeDueOrderRefunds claims the organizers' refunds due now one at a time and makes each
// through the payment provider while no row is locked, as MakeDueRefunds does for the late
// payments' refunds; the outcome is recorded in a transaction of its own.
func (s *Service) MakeDueOrderRefunds(ctx context.Context) (MadeRefunds, error) {
	var made MadeRefunds
	err := makeEachClaimed(ctx,
		func() (domain.OrderRefund, bool, error) {
			return s.repo.ClaimOrderRefund(ctx, s.clock.Now(), refundLease)
		},
		func(r domain.OrderRefund) error { return s.makeOrderRefund(ctx, r, &made) })
	if err != nil {
		return made, fmt.Errorf("order refunds: %w", err)
	}
	return made, nil
}

// makeOrderRefund obtains the claimed refund r from the provider and records the outcome:
// succeeded; a temporary failure retried after the backoff; a refusal for good as failed,
// with the provider's code and message. A failure is recorded only under r's claim, the
// latest; an outcome not recorded leaves the claim to lapse, and the refund is tried again.
func (s *Service) makeOrderRefund(ctx context.Context, r domain.OrderRefund, made *MadeRefunds) error {
	attempt, cancel := context.WithTimeout(ctx, refundAttemptTimeout)
	providerID, err := s.obtainOrderRefund(attempt, r)
	cancel()
	if err != nil && ctx.Err() != nil {
		return nil // stopping: the claim lapses and the refund is attempted again
	}
	now := s.clock.Now()
	var refusal *domain.RefundError
	if err != nil && !errors.As(err, &refusal) {
		refusal = &domain.RefundError{Message: err.Error()}
	}
	record := func(cur *domain.OrderRefund) bool { return cur.Succeeded(providerID, now) }
	switch {
	case err == nil:
	case refusal.Permanent:
		record = func(cur *domain.OrderRefund) bool { return cur.Refused(r.Claim, refusal, now) }
	default:
		wait := domain.RefundRetryWait(r.Attempts+1, rand.Float64(), s.opts.RefundRetryMax) //nolint:gosec // jitter needs no cryptographic randomness
		record = func(cur *domain.OrderRefund) bool { return cur.RetryLater(r.Claim, refusal, now, wait) }
	}
	stored, changed, recErr := s.repo.RecordOrderRefund(ctx, r.ID, record)
	if recErr != nil || !changed {
		return recErr
	}
	attrs := []any{"refund_id", r.ID, "order_id", r.OrderID, "amount", r.Amount, "attempt", stored.Attempts}
	switch stored.State {
	case domain.RefundStateSucceeded:
		made.Made++
		s.log.InfoContext(ctx, "an organizer's refund was made", append(attrs, "provider_refund_id", providerID)...)
	case domain.RefundStateFailed:
		made.Refused++
		refundsFailed.Add(ctx, 1, refundFailedCode(stored.FailureCode))
		s.log.ErrorContext(ctx, "the payment provider refused an organizer's refund for good", append(attrs, "code", stored.FailureCode, "err", stored.FailureMessage)...)
	default:
		made.Retrying++
		s.log.WarnContext(ctx, "an organizer's refund failed for now; retrying after the backoff", append(attrs, "err", refusal.Message)...)
	}
	return nil
}

// obtainOrderRefund returns the provider's refund that is r: after an earlier attempt (or when
// the provider says the payment was refunded already) the payment's refunds are read first,
// and one naming r is it; otherwise it is asked for with the claim's idempotency key.
func (s *Service) obtainOrderRefund(ctx context.Context, r domain.OrderRefund) (string, error) {
	pay, err := s.paymentsOf(r.Livemode)
	if err != nil {
		return "", &domain.RefundError{Message: err.Error()}
	}
	find := func() (string, bool, error) {
		listed, err := pay.Refunds(ctx, r.PaymentIntent)
		if err != nil {
			return "", false, err
		}
		p, ok := r.Among(listed)
		return p.ID, ok, nil
	}
	if r.Retried() {
		if id, ok, err := find(); err != nil || ok {
			return id, err
		}
	}
	id, err := pay.Refund(ctx, r.ProviderRequest())
	var refusal *domain.RefundError
	if err == nil || !errors.As(err, &refusal) || !refusal.AlreadyRefunded {
		return id, err
	}
	if found, ok, lookErr := find(); lookErr != nil || ok {
		return found, lookErr
	}
	return "", err
}

// orderRefundsPass makes the organizers' refunds due, logging a failure (used by RunRefunder).
func (s *Service) orderRefundsPass(ctx context.Context) {
	if _, err := s.MakeDueOrderRefunds(ctx); err != nil && ctx.Err() == nil {
		s.log.ErrorContext(ctx, "making the organizers' due refunds failed; retrying", "err", err)
	}
}
