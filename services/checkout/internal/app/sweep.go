package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Sweep deletes idempotency records past their retention, fails checkouts left CREATED
// longer than a hold lives (their process died before holding; their promocode use is given
// back) and prunes the inbox and the promocode failures forgiven. A step that fails does not
// hold the others back.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.clock.Now()
	var errs []error
	if _, err := s.repo.DeleteExpiredIdempotency(ctx, now); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, s.failStale(ctx, now))
	if _, err := s.repo.PruneInbox(ctx, inboxKeep); err != nil {
		errs = append(errs, err)
	}
	if _, err := s.repo.PrunePromocodeFailures(ctx, now); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return nil
}

// failStale fails checkouts left CREATED longer than a hold lives.
func (s *Service) failStale(ctx context.Context, now time.Time) error {
	ids, err := s.repo.StaleCheckouts(ctx, now.Add(-s.opts.HoldTTL))
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: id}}, func(c *domain.Checkout) ([]domain.Message, error) {
			c.Failed(now)
			return nil, nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// RunSweeper sweeps every interval until ctx is done.
func (s *Service) RunSweeper(ctx context.Context, interval time.Duration) error {
	return every(ctx, interval, func(ctx context.Context) {
		if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "sweep failed; retrying at the next interval", "err", err)
		}
	})
}

// every runs fn at once, then every interval until ctx is done.
func every(ctx context.Context, interval time.Duration, fn func(context.Context)) error {
	for {
		fn(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}
