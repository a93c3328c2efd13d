package app

import (
	"context"
	"errors"
	"time"
)

// sweepBatch is how many messages one statement deletes.
const sweepBatch = 1000

// Sweep deletes the messages older than Retention that no delivery is pending for, with their
// deliveries and attempts, in batches, then the secrets that stopped signing, then the old
// inbox records; it returns how many messages went. Each part runs whatever the others did,
// and each failure is logged.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	before := s.clock.Now().Add(-s.opts.Retention)
	var total int64
	var errs []error
	for {
		n, err := s.repo.Sweep(ctx, before, sweepBatch)
		total += n
		if err != nil {
			errs = append(errs, s.logSweep(ctx, "messages", err))
		}
		if err != nil || n < sweepBatch {
			break
		}
	}
	if err := s.repo.SweepSecrets(ctx, before); err != nil {
		errs = append(errs, s.logSweep(ctx, "expired secrets", err))
	}
	if err := s.repo.PruneInbox(ctx); err != nil {
		errs = append(errs, s.logSweep(ctx, "inbox", err))
	}
	return total, errors.Join(errs...)
}

// logSweep logs a failed part of a sweep and returns its error.
func (s *Service) logSweep(ctx context.Context, part string, err error) error {
	if ctx.Err() == nil {
		s.log.ErrorContext(ctx, "sweep of "+part+" failed; sweeping the rest, and it again at the next interval", "err", err)
	}
	return err
}

// RunSweeper sweeps every interval until ctx ends.
func (s *Service) RunSweeper(ctx context.Context, interval time.Duration) error {
	return every(ctx, interval, func(ctx context.Context) {
		_, _ = s.Sweep(ctx) // each failure is logged
	})
}
