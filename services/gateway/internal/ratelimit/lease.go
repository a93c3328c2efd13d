package ratelimit

import (
	"math"
	"sync"
	"time"
)

// A busy key would cost a Redis round trip per request. Instead each instance takes a chunk of
// tokens from the shared Redis bucket (redis_rate's AllowAtMost) and spends it locally for a
// short while. Tokens still come out of the shared bucket, so the instances together never
// admit more than the limit; a token leased and not spent in time is dropped, which can only
// refuse a little early. A chunk is sized by what this instance spends (see lease.next), never
// more than the limit emits in leaseWindow or maxLeaseChunk: a bucket used a few times a
// window takes one token per request and stays exact, and one used thousands of times a second
// asks Redis a few dozen times a second.
const (
	leaseWindow   = 100 * time.Millisecond
	maxLeaseChunk = 1 << 14
)

// leaseChunk is the most tokens one Redis call may take for l: what the limit emits in
// leaseWindow.
func leaseChunk(l Limit) int {
	n := int(int64(l.Rate) * int64(leaseWindow) / int64(l.Period))
	return min(max(n, 1), maxLeaseChunk)
}

// A lease in use is renewed in the background before it runs out (renewAt of its window
// gone, or half its tokens left), so a busy bucket's requests do not wait for Redis, even when
// the renewal's answer waits behind a busy instance's other work for tens of milliseconds;
// the tokens still unspent are kept with the new chunk. Only leases of minRenewChunk tokens or
// more are renewed: a bucket spending a few tokens a window would see two requests in a row as
// busy, and a renewal nobody spends before it lapses would cost it a noticeable share of its
// budget.
const (
	renewAt       = leaseWindow / 2
	minRenewChunk = 8
)

// lease holds tokens taken from Redis for one bucket, and while Redis refuses the bucket, the
// time until it admits again. Its methods are called with mu held.
type lease struct {
	mu       sync.Mutex
	tokens   int
	spent    int // tokens spent since the current ones were taken
	size     int // tokens the next Redis call asks for
	started  time.Time
	expires  time.Time
	renewing bool
	// taking is closed when the Redis call in flight for this bucket (a request's, or the
	// lease's renewal) returns; nil when none is. Requests that find no token wait for it
	// instead of asking Redis too.
	taking chan struct{}
	// refused is Redis's last refusal while it lasts (until refusedUntil): later requests get
	// it without asking again, since no token can appear before then.
	refused      Decision
	refusedUntil time.Time
	// remaining and resetAfter are what Redis reported when the tokens were taken.
	remaining  int
	resetAfter time.Duration
}

// take spends one leased token if any is left and unexpired, or repeats a refusal that still
// holds. Tokens do not lapse while their lease is being renewed: on a busy machine the renewal's
// answer can come after the window, and until it does the tokens already taken from the shared
// bucket serve the requests that would otherwise all wait for Redis. (The renewal's own timeout,
// a window, bounds how late they are spent.)
func (ls *lease) take(now time.Time, limit Limit) (Decision, bool) {
	if now.Before(ls.refusedUntil) {
		d := ls.refused
		d.RetryAfter = ls.refusedUntil.Sub(now)
		return d, true
	}
	if ls.tokens == 0 || (!now.Before(ls.expires) && !ls.renewing) {
		ls.tokens = 0
		return Decision{}, false
	}
	ls.tokens--
	ls.spent++
	return Decision{Allowed: true, Limit: limit, Remaining: ls.remaining + ls.tokens, RetryAfter: -1, ResetAfter: ls.resetAfter}, true
}

// next sizes the next chunk from what this lease spent: a chunk's worth of tokens at the pace
// they were spent, half as much again for growth, at most double the last chunk (a burst is
// not a pace) and at most most. A lease that lapsed before it ran out shrinks to what it spent.
func (ls *lease) next(now time.Time, most int) int {
	age := max(now.Sub(ls.started), leaseWindow/10)
	pace := float64(ls.spent) * float64(leaseWindow) / float64(min(age, leaseWindow))
	ls.size = min(max(int(math.Ceil(1.5*pace)), 1), 2*max(ls.size, 1), most)
	return ls.size
}

// add keeps the tokens of a Redis answer beyond the one spent now.
func (ls *lease) add(now time.Time, extra, remaining int, resetAfter time.Duration) int {
	if !now.Before(ls.expires) {
		ls.tokens = 0
	}
	ls.tokens += extra
	ls.spent = 1
	ls.refusedUntil = time.Time{}
	ls.started, ls.expires = now, now.Add(leaseWindow)
	ls.remaining, ls.resetAfter = remaining, resetAfter
	return ls.remaining + ls.tokens
}

// refuse remembers a refusal until its retry time.
func (ls *lease) refuse(now time.Time, d Decision) {
	ls.refused, ls.refusedUntil = d, now.Add(d.RetryAfter)
}

// claimRenewal reports whether the caller should renew the lease now, and if so marks it as
// being renewed, so only one renewal runs, and as the bucket's call in flight (see taking).
func (ls *lease) claimRenewal(now time.Time) bool {
	if ls.renewing || ls.taking != nil || ls.size < minRenewChunk || (now.Sub(ls.started) < renewAt && ls.tokens > ls.size/2) {
		return false
	}
	ls.renewing, ls.taking = true, make(chan struct{})
	return true
}

// renewed adds a renewal's tokens to those still unspent (none when it failed or got none) and
// releases the requests waiting for it.
func (ls *lease) renewed(now time.Time, tokens, remaining int, resetAfter time.Duration) {
	ls.renewing = false
	if ls.taking != nil {
		close(ls.taking)
		ls.taking = nil
	}
	if tokens == 0 {
		return
	}
	if !now.Before(ls.expires) {
		ls.tokens = 0
	}
	ls.tokens += tokens
	ls.spent = 0
	ls.refusedUntil = time.Time{}
	ls.started, ls.expires = now, now.Add(leaseWindow)
	ls.remaining, ls.resetAfter = remaining, resetAfter
}
