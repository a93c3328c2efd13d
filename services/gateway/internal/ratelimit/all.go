package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Bucket is one bucket a request draws from.
type Bucket struct {
	Key   string
	Limit Limit
}

// AllowAll takes one request from every bucket of each stage in turn, as Allow does for each,
// and returns the tightest decision. A stage is charged only when every bucket of the stages
// before it admitted the request: callers put the narrowest buckets (a client's own) first and
// the shared ones (a key's, which every client of a site draws from) last, so a request one of
// its own buckets refuses spends nothing of anyone else's. Within a stage, buckets whose leases
// still hold tokens answer at once and the others ask Redis at the same time: a stage of
// several buckets leased together (they expire together) waits for one round trip, not one
// per bucket.
func (l *Limiter) AllowAll(ctx context.Context, stages ...[]Bucket) Decision {
	d := unlimited
	for _, stage := range stages {
		if len(stage) == 0 {
			continue
		}
		d = d.Tighter(l.allowStage(ctx, stage))
		if !d.Allowed {
			return d
		}
	}
	return d
}

// allowStage takes one request from every bucket of stage and returns the tightest decision.
func (l *Limiter) allowStage(ctx context.Context, stage []Bucket) Decision {
	if len(stage) == 1 {
		if d, ok := l.fromLease(ctx, stage[0].Key, stage[0].Limit); ok {
			return d
		}
		return l.Allow(ctx, stage[0].Key, stage[0].Limit)
	}
	decisions := make([]Decision, len(stage))
	var pending []int
	for i, b := range stage {
		if d, ok := l.fromLease(ctx, b.Key, b.Limit); ok {
			decisions[i] = d
		} else {
			pending = append(pending, i)
		}
	}
	if len(pending) == 1 {
		i := pending[0]
		decisions[i] = l.Allow(ctx, stage[i].Key, stage[i].Limit)
	} else if len(pending) > 1 {
		var wg sync.WaitGroup
		for _, i := range pending {
			b := stage[i] // a copy: the goroutines must not keep the caller's slice, which can then stay on its stack
			wg.Go(func() { decisions[i] = l.Allow(ctx, b.Key, b.Limit) })
		}
		wg.Wait()
	}
	d := decisions[0]
	for _, o := range decisions[1:] {
		d = d.Tighter(o)
	}
	return d
}

// fromLease answers from the bucket's lease without Redis when the limit is off, a leased
// token is left or a refusal still holds (and Redis is not being skipped).
func (l *Limiter) fromLease(ctx context.Context, key string, limit Limit) (Decision, bool) {
	if limit.IsZero() {
		return unlimited, true
	}
	most, now := leaseChunk(limit), time.Now()
	if now.UnixNano() < l.downUntil.Load() {
		return Decision{}, false
	}
	ls := l.leaseOf(key)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return l.spend(ctx, ls, key, limit, most, now)
}
