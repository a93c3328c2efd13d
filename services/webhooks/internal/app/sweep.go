package app

import (
	"context"
	"time"
)

// sweepBatch is how many messages one statement deletes.
const sweepBatch = 1000

// Sweep deletes the messages older than Retention that no delivery is pending for, with their
// deliveries and attempts, in batches, and the secrets that stopped signing; it returns how
// many messages went.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	before := s.clock.Now().Add(-s.opts.Retention)
	var total int64
	for {
		n, err := s.repo.Sweep(ctx, before, sweepBatch)
		total += n
		if err != nil || n < sweepBatch {
			return total, err
		}
	}
}

// RunSweeper sweeps every interval until ctx ends.
func (s *Service) RunSweeper(ctx context.Context, interval time.Duration) error {
	return every(ctx, interval, func(ctx context.Context) {
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "sweep failed; retrying at the next interval", "err", err)
		}
	})
}
