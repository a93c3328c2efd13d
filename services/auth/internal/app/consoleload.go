package app

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"github.com/podiumhq/podium/libs/fault"
)

// Anyone may reach the console without an account: what a visitor asks is bounded before it
// reaches the database. Each client network's requests for links pass a rate limit first, and
// every console request that needs the database takes one of the places of the console's own
// pool, waiting a moment at most: a flood is answered 503 at once rather than queued until its
// deadline, and the API's pool (key verification, the admin API) is never the console's.

// maxLimitedNetworks bounds how many client networks the sign-in request limit remembers (the
// least recently seen are forgotten first): tens of megabytes at most. Forgetting a network
// gives it a full burst again, which only a client with that many networks of its own can
// bring about.
const maxLimitedNetworks = 100_000

// placeWait is the longest a console request waits for one of the console's places; past it
// the request is answered 503 with Retry-After placeRetryAfter.
const (
	placeWait       = 100 * time.Millisecond
	placeRetryAfter = time.Second
)

// errConsoleBusy answers a request that found every place of the console taken.
var errConsoleBusy = &fault.Error{
	Kind: fault.Unavailable, Problems: []string{"the console is busy: try again in a moment"}, RetryAfter: placeRetryAfter,
}

// errTooManySignInRequests refuses a request for a link from a network past its rate; the
// answer depends on the network only, never on the e-mail asked for.
func errTooManySignInRequests(retryAfter time.Duration) error {
	return fault.NewTooManyRequests("too many sign-in requests came from your network: wait a moment and try again", retryAfter)
}

// networkLimiter bounds the requests each client network makes (an IPv4 address, an IPv6 /64):
// perMinute a minute, in bursts of as many, by the times its callers give.
type networkLimiter struct {
	every time.Duration
	burst int
	mu    sync.Mutex
	byNet *simplelru.LRU[string, *rate.Limiter]
}

func newNetworkLimiter(perMinute int) *networkLimiter {
	byNet, err := simplelru.NewLRU[string, *rate.Limiter](maxLimitedNetworks, nil)
	if err != nil {
		panic(err) // only a size below one fails
	}
	perMinute = max(perMinute, 1)
	return &networkLimiter{every: time.Minute / time.Duration(perMinute), burst: perMinute, byNet: byNet}
}

// allow takes one request of network at now, or reports how long until it may make one.
func (l *networkLimiter) allow(network string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	lim, ok := l.byNet.Get(network)
	if !ok {
		lim = rate.NewLimiter(rate.Every(l.every), l.burst)
		l.byNet.Add(network, lim)
	}
	l.mu.Unlock()
	r := lim.ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now)
		return wait, false
	}
	return 0, true
}

// Hold takes one of the console's places (ConsoleConfig.DBConns, the size of its pool) for a
// request's database work, and returns what gives it back. It waits placeWait at most: a
// request that finds every place taken for longer is answered 503 with Retry-After, so a flood
// sheds itself instead of holding everyone's requests until their deadline.
func (c *Console) Hold(ctx context.Context) (release func(), err error) {
	wait, cancel := context.WithTimeout(ctx, placeWait)
	defer cancel()
	if err := c.places.Acquire(wait, 1); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("wait for a console place: %w", ctx.Err())
		}
		return nil, errConsoleBusy
	}
	return sync.OnceFunc(func() { c.places.Release(1) }), nil
}

// withPlace runs fn, database work, holding one of the console's places (Hold).
func (c *Console) withPlace(ctx context.Context, fn func() error) error {
	release, err := c.Hold(ctx)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}

func newPlaces(n int) *semaphore.Weighted { return semaphore.NewWeighted(int64(max(n, 1))) }
