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

// Anyone may ask for a sign-in link, or open or use one, without an account: these requests
// are bounded before they reach the database. Each client network's requests for links pass a
// rate limit first, and every sign-in request's database work waits for one of a few places,
// so a flood neither queues transactions on one e-mail's lock nor takes the connections that
// key verification and the signed-in pages need.

// maxLimitedNetworks bounds how many client networks the sign-in request limit remembers (the
// least recently seen are forgotten first): tens of megabytes at most. Forgetting a network
// gives it a full burst again, which only a client with that many networks of its own can
// bring about.
const maxLimitedNetworks = 100_000

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

// signInWork runs fn, the database work of a sign-in request, holding one of the places
// ConsoleConfig.SignInConns allows: requests wait their turn, first come first served, until
// their deadline.
func (c *Console) signInWork(ctx context.Context, fn func() error) error {
	if err := c.signInPlaces.Acquire(ctx, 1); err != nil {
		return fmt.Errorf("wait for a sign-in place: %w", err)
	}
	defer c.signInPlaces.Release(1)
	return fn()
}

func newSignInPlaces(n int) *semaphore.Weighted { return semaphore.NewWeighted(int64(max(n, 1))) }
