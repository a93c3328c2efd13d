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

// AllowAll takes one request from every bucket, as Allow does for each, and returns the tightest
// decision. Buckets whose leases still hold tokens answer at once; the others ask Redis at the
// same time. A request drawing from several buckets leased together (they expire together)
// then waits for one round trip instead of one per bucket.
func (l *Limiter) AllowAll(ctx context.Context, buckets ...Bucket) Decision {
	if len(buckets) == 0 {
		return unlimited
	}
	decisions := make([]Decision, len(buckets))
	var pending []int
	for i, b := range buckets {
		if d, ok := l.fromLease(ctx, b.Key, b.Limit); ok {
			decisions[i] = d
		} else {
			pending = append(pending, i)
		}
	}
	if len(pending) == 1 {
		i := pending[0]
		decisions[i] = l.Allow(ctx, buckets[i].Key, buckets[i].Limit)
	} else if len(pending) > 1 {
		var wg sync.WaitGroup
		for _, i := range pending {
			wg.Go(func() { decisions[i] = l.Allow(ctx, buckets[i].Key, buckets[i].Limit) })
		}
		wg.Wait()
	}
	d := decisions[0]
	for _, o := range decisions[1:] {
		d = d.Tighter(o)
	}
	return d
}

// fromLease answers from the bucket's lease without Redis when the limit is off or a leased
// token is left (and Redis is not being skipped).
func (l *Limiter) fromLease(ctx context.Context, key string, limit Limit) (Decision, bool) {
	if limit.IsZero() {
		return unlimited, true
	}
	chunk := leaseChunk(limit)
	if chunk == 1 || time.Now().UnixNano() < l.downUntil.Load() {
		return Decision{}, false
	}
	return l.spend(ctx, l.leaseOf(key), key, limit, chunk, time.Now())
}
