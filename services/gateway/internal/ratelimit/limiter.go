package ratelimit

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"
)

// Limiter checks limits in Redis, falling back to in-process limiters while Redis fails.
type Limiter struct {
	redis *redis_rate.Limiter
	log   *slog.Logger
	// share scales limits while limiting in-process (the bits of a float64): with N gateway
	// instances, 1/N keeps the fleet-wide rate within the configured one.
	share atomic.Uint64
	// pause is how long Redis is skipped after a failure before it is probed again.
	pause     time.Duration
	downUntil atomic.Int64
	local     *expirable.LRU[string, *localLimit]
	leases    *expirable.LRU[string, *lease]
	leasesMu  sync.Mutex
}

// New returns a Limiter over rdb that allows localShare of each limit while Redis is down.
func New(rdb *redis.Client, log *slog.Logger, localShare float64) *Limiter {
	l := &Limiter{
		redis:  redis_rate.NewLimiter(rdb),
		log:    log,
		pause:  time.Second,
		local:  expirable.NewLRU[string, *localLimit](200_000, nil, time.Hour),
		leases: expirable.NewLRU[string, *lease](200_000, nil, time.Minute),
	}
	l.SetShare(localShare)
	return l
}

// SetShare sets the share of each limit (in (0, 1]) this instance allows while Redis is down;
// in-process limits already running take it at their next request, keeping the tokens they
// have up to their new burst.
func (l *Limiter) SetShare(share float64) { l.share.Store(math.Float64bits(share)) }

// Allow takes one request from the bucket named key under limit.
func (l *Limiter) Allow(ctx context.Context, key string, limit Limit) Decision {
	if limit.IsZero() {
		return unlimited
	}
	if time.Now().UnixNano() >= l.downUntil.Load() {
		d, err := l.allowRedis(ctx, key, limit)
		if err == nil {
			return d
		}
		if ctx.Err() == nil && l.downUntil.Swap(time.Now().Add(l.pause).UnixNano()) < time.Now().UnixNano() {
			l.log.WarnContext(ctx, "rate limiting in-process: Redis failed", "err", err, "retry_in", l.pause)
		}
	}
	return l.allowLocal(key, limit)
}

// allowRedis spends a leased token or takes tokens from the shared bucket in Redis: the chunk
// the lease is due, one token for a limit too slow to lease more (which so stays exact). Either
// way a refusal is remembered until its retry time, so a flood past a limit costs Redis nothing.
func (l *Limiter) allowRedis(ctx context.Context, key string, limit Limit) (Decision, error) {
	return l.allowLeased(ctx, l.leaseOf(key), key, limit, leaseChunk(limit))
}

// allowLeased answers from the lease of key, asking Redis when it holds no token. Requests that
// find it empty while another asks Redis for it wait for that answer rather than asking too, so
// a burst on an empty lease costs one round trip.
func (l *Limiter) allowLeased(ctx context.Context, ls *lease, key string, limit Limit, most int) (Decision, error) {
	for {
		ls.mu.Lock()
		if d, ok := l.spend(ctx, ls, key, limit, most, time.Now()); ok {
			ls.mu.Unlock()
			return d, nil
		}
		if wait := ls.taking; wait != nil {
			ls.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return Decision{}, ctx.Err()
			}
		}
		done := make(chan struct{})
		ls.taking = done
		size := ls.next(time.Now(), most)
		ls.mu.Unlock()

		res, err := l.redis.AllowAtMost(ctx, key, limit, size)
		now := time.Now()
		ls.mu.Lock()
		ls.taking = nil
		close(done)
		var d Decision
		if err == nil {
			d = Decision{Allowed: res.Allowed > 0, Limit: limit, Remaining: res.Remaining, RetryAfter: res.RetryAfter, ResetAfter: res.ResetAfter}
			if d.Allowed {
				d.Remaining = ls.add(now, res.Allowed-1, res.Remaining, res.ResetAfter)
			} else {
				ls.refuse(now, d)
			}
		}
		ls.mu.Unlock()
		return d, err
	}
}

// unlimited is the decision of a limit that is off.
var unlimited = Decision{Allowed: true, Remaining: math.MaxInt}

// spend takes a leased token of key (ls.mu held), starting the lease's renewal when it is due.
func (l *Limiter) spend(ctx context.Context, ls *lease, key string, limit Limit, most int, now time.Time) (Decision, bool) {
	d, ok := ls.take(now, limit)
	if ok && d.Allowed && ls.claimRenewal(now) {
		go l.renew(context.WithoutCancel(ctx), key, limit, ls.next(now, most), ls)
	}
	return d, ok
}

// renew takes the next chunk of a lease in use from Redis, off the request path. It outlives
// the request that started it, so it keeps the request's values (its trace) but not its
// cancellation, and has a timeout of its own. A failure leaves the lease to lapse: the next
// request then goes to Redis itself and falls back as Allow does.
func (l *Limiter) renew(ctx context.Context, key string, limit Limit, chunk int, ls *lease) {
	ctx, cancel := context.WithTimeout(ctx, leaseWindow)
	defer cancel()
	res, err := l.redis.AllowAtMost(ctx, key, limit, chunk)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if err != nil {
		ls.renewed(time.Now(), 0, 0, 0)
		return
	}
	ls.renewed(time.Now(), res.Allowed, res.Remaining, res.ResetAfter)
}

// leaseOf returns the lease of key, creating it once.
func (l *Limiter) leaseOf(key string) *lease {
	if ls, ok := l.leases.Get(key); ok {
		return ls
	}
	l.leasesMu.Lock()
	defer l.leasesMu.Unlock()
	ls, ok := l.leases.Get(key)
	if !ok {
		ls = &lease{}
		l.leases.Add(key, ls)
	}
	return ls
}

// FallingBack reports whether limits are currently kept in-process.
func (l *Limiter) FallingBack() bool { return time.Now().UnixNano() < l.downUntil.Load() }

// localLimit is an in-process limit and the share it was sized for.
type localLimit struct {
	*rate.Limiter
	share atomic.Uint64
}

// allowLocal takes one request from the in-process bucket of key: limit scaled by the share,
// its rate exactly and its burst rounded down, though never below one request.
func (l *Limiter) allowLocal(key string, limit Limit) Decision {
	bits := l.share.Load()
	share := math.Float64frombits(bits)
	scaled := max(1, int(math.Floor(float64(limit.Burst)*share)))
	every := time.Duration(float64(limit.Period) / (float64(limit.Rate) * share))
	now := time.Now()
	lim, ok := l.local.Get(key)
	if !ok {
		lim = &localLimit{Limiter: rate.NewLimiter(rate.Every(every), scaled)}
		lim.share.Store(bits)
		l.local.Add(key, lim)
	} else if lim.share.Swap(bits) != bits {
		lim.SetLimitAt(now, rate.Every(every))
		lim.SetBurstAt(now, scaled)
	}
	r := lim.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return Decision{Allowed: false, Limit: limit, RetryAfter: delay, ResetAfter: every * time.Duration(scaled)}
	}
	remaining := int(lim.TokensAt(now))
	return Decision{
		Allowed: true, Limit: limit, Remaining: remaining,
		RetryAfter: -1, ResetAfter: every * time.Duration(scaled-remaining),
	}
}
