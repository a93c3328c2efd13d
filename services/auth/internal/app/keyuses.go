package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// keyUses holds the last use of each key verified since the last flush: one entry per key
// however often it is verified, so a flush writes each key once.
type keyUses struct {
	mu      sync.Mutex
	pending map[string]time.Time
}

// record remembers that key id was used at at, keeping the latest time.
func (u *keyUses) record(id string, at time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if prev, ok := u.pending[id]; !ok || at.After(prev) {
		u.pending[id] = at
	}
}

// take returns the remembered uses and forgets them.
func (u *keyUses) take() map[string]time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	taken := u.pending
	u.pending = make(map[string]time.Time, len(taken))
	return taken
}

// restore remembers uses again after a failed flush, unless a later use was recorded since.
func (u *keyUses) restore(uses map[string]time.Time) {
	for id, at := range uses {
		u.record(id, at)
	}
}

// FlushKeyUses writes the key uses recorded since the last flush in one statement. When the
// write fails they are kept for the next flush.
func (s *Service) FlushKeyUses(ctx context.Context) error {
	uses := s.uses.take()
	if len(uses) == 0 {
		return nil
	}
	if err := s.repo.RecordKeyUses(ctx, uses); err != nil {
		s.uses.restore(uses)
		return fmt.Errorf("flush key uses: %w", err)
	}
	return nil
}

// flushTimeout bounds one flush, the last one at shutdown included.
const flushTimeout = 5 * time.Second

// RunKeyUseFlusher flushes the recorded key uses every interval until ctx is done, then once
// more, so that uses recorded while the server drained are written too.
func (s *Service) RunKeyUseFlusher(ctx context.Context, every time.Duration, log *slog.Logger) error {
	tick := time.NewTicker(every)
	defer tick.Stop()
	flush := func(parent context.Context) {
		fctx, cancel := context.WithTimeout(parent, flushTimeout)
		defer cancel()
		if err := s.FlushKeyUses(fctx); err != nil {
			log.WarnContext(fctx, "key uses not written; kept for the next flush", "err", err)
		}
	}
	for {
		select {
		case <-ctx.Done():
			flush(context.WithoutCancel(ctx))
			return nil
		case <-tick.C:
			flush(ctx)
		}
	}
}
