package domain

import "time"

// Backoff limits the failed promocode attempts of one subject (a client network or a
// publishable key). Free failures are allowed at once, and one more every Window/Free: a
// leaky count, as the GCRA rate limiters do, so a subject failing Free times per Window at
// most is never held back. Each failure beyond that blocks the subject: first for Base,
// doubling with each further failure still counted, up to Max.
type Backoff struct {
	Free   int
	Window time.Duration
	Base   time.Duration
	Max    time.Duration
}

// Defaults of the promocode backoffs. A buyer mistyping a code a few times is never blocked
// (5 free failures per address, one more every 12 minutes), while guessing from one address
// is cut to 13 codes in the first hour and about 5 an hour after; a site's visitors share its
// key, so the key allows 100 an hour, which only many addresses guessing together reach.
// Blocks start at a minute and double up to an hour.
var (
	DefaultAddressBackoff = Backoff{Free: 5, Window: time.Hour, Base: time.Minute, Max: time.Hour}
	DefaultKeyBackoff     = Backoff{Free: 100, Window: time.Hour, Base: time.Minute, Max: time.Hour}
)

// FailureState is what is remembered of a subject's failures: when its leaky count is back
// to zero, and until when it is blocked.
type FailureState struct {
	DrainedAt    time.Time
	BlockedUntil time.Time
}

// FailureSubject is who failed promocodes count against, and its backoff.
type FailureSubject struct {
	Key     string
	Backoff Backoff
}

// Blocked reports how long s is still blocked at now (0: not blocked).
func (b Backoff) Blocked(s FailureState, now time.Time) time.Duration {
	return max(s.BlockedUntil.Sub(now), 0)
}

// FailureCharge is a failure recorded up front against a subject: the state before and after
// it, so that it can be taken back if the code turns out valid (see Forgive).
type FailureCharge struct {
	Subject       FailureSubject
	Before, After FailureState
}

// clockSlack is how far apart the clocks of two requests recording failures may be (one read
// before the other's, or on instances a little apart) without the later-recorded one counting
// the other's failure as well: a failure within clockSlack of being forgiven counts as forgiven.
const clockSlack = time.Second

// interval is how often one failure is forgiven.
func (b Backoff) interval() time.Duration { return b.Window / time.Duration(max(b.Free, 1)) }

// Fail records a failure at now and returns the new state: the count grows by one, and a
// count beyond Free blocks the subject for Base·2^(n-1), n being the failures beyond Free,
// at most Max.
func (b Backoff) Fail(s FailureState, now time.Time) FailureState {
	interval := b.interval()
	s.DrainedAt = s.DrainedAt.Add(interval)
	if s.DrainedAt.Before(now.Add(interval)) {
		s.DrainedAt = now.Add(interval)
	}
	count := int((s.DrainedAt.Sub(now) - min(clockSlack, interval/2) + interval - 1) / interval)
	if over := count - b.Free; over > 0 {
		block := b.Base
		for i := 1; i < over && block < b.Max; i++ {
			block *= 2
		}
		block = min(block, b.Max)
		if until := now.Add(block); until.After(s.BlockedUntil) {
			s.BlockedUntil = until
		}
	}
	return s
}

// Forgive takes back from s the failure c recorded: the count shrinks by one, and the block
// that failure set is lifted unless a later failure set a block of its own since (that one
// stands).
func (b Backoff) Forgive(s FailureState, c FailureCharge) FailureState {
	s.DrainedAt = s.DrainedAt.Add(-b.interval())
	if c.After.BlockedUntil.After(c.Before.BlockedUntil) && s.BlockedUntil.Equal(c.After.BlockedUntil) {
		s.BlockedUntil = c.Before.BlockedUntil
	}
	return s
}
