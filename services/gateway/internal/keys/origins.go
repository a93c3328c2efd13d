package keys

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
)

// originCache remembers whether some active publishable key allows an origin. Allowed and
// refused origins are kept apart, so that made-up origins, which are all refused, can only
// evict each other and never the allowed origins preflights rely on.
type originCache struct {
	ttl     time.Duration
	allowed *expirable.LRU[string, time.Time] // when the origin was found allowed
	refused *expirable.LRU[string, struct{}]
}

func newOriginCache(ttl, stale time.Duration) originCache {
	return originCache{
		ttl:     ttl,
		allowed: expirable.NewLRU[string, time.Time](10_000, nil, ttl+stale),
		refused: expirable.NewLRU[string, struct{}](10_000, nil, ttl),
	}
}

// purge forgets every decision.
func (c originCache) purge() {
	c.allowed.Purge()
	c.refused.Purge()
}

// OriginAllowed reports whether some active publishable key allows origin (CORS preflights
// carry no key). A decision is remembered for the origin cache lifetime; on a miss, admit
// charges the caller that starts the lookup concurrent callers share, and may refuse it (its
// error is returned to that caller only, see once). While
// auth cannot be reached, an origin found allowed before is still allowed for up to the
// stale lifetime past its own.
func (s *Store) OriginAllowed(ctx context.Context, origin string, now time.Time, admit func() error) (bool, error) {
	at, known := s.origins.allowed.Get(origin)
	age := now.Sub(at)
	if known && age <= s.origins.ttl {
		return true, nil
	}
	if !known {
		if _, refused := s.origins.refused.Get(origin); refused {
			return false, nil
		}
	}
	staleOK := known && age <= s.origins.ttl+s.stale
	if staleOK && s.outage.ongoing() {
		if s.outage.probeDue(now) {
			go s.lookupOrigin(context.WithoutCancel(ctx), origin, now, nil) //nolint:errcheck // the next request sees the outcome
		}
		s.outage.servedStale(ctx)
		return true, nil
	}
	ok, err := s.lookupOrigin(ctx, origin, now, admit)
	if staleOK && errors.Is(err, ErrUnreachable) {
		s.outage.servedStale(ctx)
		return true, nil
	}
	return ok, err
}

// lookupOrigin asks auth about origin, once for concurrent callers (see once), and remembers
// the answer.
func (s *Store) lookupOrigin(ctx context.Context, origin string, now time.Time, admit func() error) (bool, error) {
	v, err := s.once("origin\x00"+origin, admit, func() (any, error) {
		ok, err := s.src.OriginAllowed(context.WithoutCancel(ctx), origin)
		s.outage.observe(ctx, now, err)
		if err != nil {
			return false, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		if ok {
			s.origins.refused.Remove(origin)
			s.origins.allowed.Add(origin, now)
		} else {
			s.origins.allowed.Remove(origin)
			s.origins.refused.Add(origin, struct{}{})
		}
		return ok, nil
	})
	if err != nil {
		return false, err
	}
	return v.(bool), nil
}
