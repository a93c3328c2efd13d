package ratelimit

import (
	"sync"
	"time"
)

// A busy key would cost a Redis round trip per request. Instead each instance takes a small
// chunk of tokens from the shared Redis bucket (redis_rate's AllowAtMost) and spends it
// locally for a short while. Tokens still come out of the shared bucket, so the instances
// together never admit more than the limit; a token leased and not spent in time is dropped,
// which can only refuse a little early. Limits of a few requests per second keep a chunk of
// one and stay exact.
const (
	leaseWindow   = 100 * time.Millisecond
	maxLeaseChunk = 32
)

// leaseChunk is how many tokens to take per Redis call: what the limit emits in leaseWindow.
func leaseChunk(l Limit) int {
	n := int(int64(l.Rate) * int64(leaseWindow) / int64(l.Period))
	return min(max(n, 1), maxLeaseChunk)
}

// A lease in use is renewed in the background before it runs out (renewAt of its window
// gone, or a quarter of its tokens left), so a busy bucket's requests do not wait for Redis;
// the tokens still unspent are kept with the new chunk. Only leases of minRenewChunk tokens or
// more are renewed: a small limit (a few dozen requests a second per address) would see two
// requests in a row as busy, and a renewal nobody spends before it lapses would cost it a
// noticeable share of its budget.
const (
	renewAt       = leaseWindow * 7 / 10
	minRenewChunk = 8
)

// lease holds tokens taken from Redis for one bucket.
type lease struct {
	mu       sync.Mutex
	tokens   int
	started  time.Time
	expires  time.Time
	renewing bool
	// remaining and resetAfter are what Redis reported when the tokens were taken.
	remaining  int
	resetAfter time.Duration
}

// take spends one leased token if any is left and unexpired.
func (ls *lease) take(now time.Time, limit Limit) (Decision, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.tokens == 0 || !now.Before(ls.expires) {
		ls.tokens = 0
		return Decision{}, false
	}
	ls.tokens--
	return Decision{Allowed: true, Limit: limit, Remaining: ls.remaining + ls.tokens, RetryAfter: -1, ResetAfter: ls.resetAfter}, true
}

// add keeps the tokens of a Redis answer beyond the one spent now.
func (ls *lease) add(now time.Time, extra, remaining int, resetAfter time.Duration) int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if !now.Before(ls.expires) {
		ls.tokens = 0
	}
	ls.tokens += extra
	ls.started, ls.expires = now, now.Add(leaseWindow)
	ls.remaining, ls.resetAfter = remaining, resetAfter
	return ls.remaining + ls.tokens
}

// claimRenewal reports whether the caller should renew the lease now, and if so marks it as
// being renewed, so only one renewal runs.
func (ls *lease) claimRenewal(now time.Time, chunk int) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.renewing || (now.Sub(ls.started) < renewAt && ls.tokens > chunk/4) {
		return false
	}
	ls.renewing = true
	return true
}

// renewed adds a renewal's tokens to those still unspent (none when it failed or got none).
func (ls *lease) renewed(now time.Time, tokens, remaining int, resetAfter time.Duration) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.renewing = false
	if tokens == 0 {
		return
	}
	if !now.Before(ls.expires) {
		ls.tokens = 0
	}
	ls.tokens += tokens
	ls.started, ls.expires = now, now.Add(leaseWindow)
	ls.remaining, ls.resetAfter = remaining, resetAfter
}
