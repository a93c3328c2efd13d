package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// TestBackoffBlocksDoubleBeyondTheFreeFailures: five failures at once (as concurrent
// requests make them) are free; each further one blocks for twice as long, up to an hour.
func TestBackoffBlocksDoubleBeyondTheFreeFailures(t *testing.T) {
	b := domain.DefaultAddressBackoff
	var s domain.FailureState
	for i := range 5 {
		if s = b.Fail(s, t0); b.Blocked(s, t0) != 0 {
			t.Fatalf("failure %d blocked for %s", i+1, b.Blocked(s, t0))
		}
	}
	for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour} {
		s = b.Fail(s, t0)
		if got := b.Blocked(s, t0); got != want {
			t.Fatalf("failure %d beyond the free ones: blocked %s, want %s", i+1, got, want)
		}
	}
	if b.Blocked(s, t0.Add(time.Hour)) != 0 {
		t.Fatal("still blocked when the longest block ended")
	}
}

// TestBackoffCountsAFailureRecordedWithAnEarlierClockOnce: of five failures recorded at once, the
// last read its clock a millisecond before the others (it waited for their turn): it is still
// the fifth, free, and the sixth blocks.
func TestBackoffCountsAFailureRecordedWithAnEarlierClockOnce(t *testing.T) {
	b := domain.DefaultAddressBackoff
	var s domain.FailureState
	for range 4 {
		s = b.Fail(s, t0.Add(time.Millisecond))
	}
	if s = b.Fail(s, t0); b.Blocked(s, t0) != 0 {
		t.Fatalf("blocked %s by the fifth failure", b.Blocked(s, t0))
	}
	if s = b.Fail(s, t0.Add(time.Millisecond)); b.Blocked(s, t0.Add(time.Millisecond)) != time.Minute {
		t.Fatalf("the sixth failure blocks for %s, want a minute", b.Blocked(s, t0.Add(time.Millisecond)))
	}
}

// TestBackoffBlocksAGuesserOneAfterAnother: failures made as soon as each block ends block for
// 1, 2, 4 and 8 minutes; by then a failure was forgiven (one every 12 minutes), so the count,
// and the block, grow more slowly from there.
func TestBackoffBlocksAGuesserOneAfterAnother(t *testing.T) {
	b := domain.DefaultAddressBackoff
	var s domain.FailureState
	for range 5 {
		s = b.Fail(s, t0)
	}
	now := t0
	for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 8 * time.Minute, 16 * time.Minute} {
		s = b.Fail(s, now)
		if got := b.Blocked(s, now); got != want {
			t.Fatalf("guess %d after the free ones: blocked %s, want %s", i+1, got, want)
		}
		now = s.BlockedUntil
	}
}

// TestBackoffForgivesOneFailurePerInterval: after five failures at once, one more is free
// every 12 minutes (an hour over five), and a quiet hour forgives them all.
func TestBackoffForgivesOneFailurePerInterval(t *testing.T) {
	b := domain.DefaultAddressBackoff
	var s domain.FailureState
	for range 5 {
		s = b.Fail(s, t0)
	}
	if s = b.Fail(s, t0.Add(12*time.Minute)); b.Blocked(s, t0.Add(12*time.Minute)) != 0 {
		t.Fatal("a failure 12 minutes after five was blocked")
	}
	if s = b.Fail(s, t0.Add(13*time.Minute)); b.Blocked(s, t0.Add(13*time.Minute)) != time.Minute {
		t.Fatalf("a failure a minute later: blocked %s, want a minute", b.Blocked(s, t0.Add(13*time.Minute)))
	}
	later := s.DrainedAt
	for i := range 5 {
		if s = b.Fail(s, later); b.Blocked(s, later) != 0 {
			t.Fatalf("failure %d after a quiet hour was blocked", i+1)
		}
	}
}

// TestBackoffNeverBlocksAnHonestPace: five failures an hour, every hour for a week, are
// never blocked; the key's backoff takes a hundred at once.
func TestBackoffNeverBlocksAnHonestPace(t *testing.T) {
	b := domain.DefaultAddressBackoff
	var s domain.FailureState
	for now := t0; now.Before(t0.Add(7 * 24 * time.Hour)); now = now.Add(12 * time.Minute) {
		if s = b.Fail(s, now); b.Blocked(s, now) != 0 {
			t.Fatalf("blocked at %s", now.Sub(t0))
		}
	}
	k := domain.DefaultKeyBackoff
	var ks domain.FailureState
	for i := range 100 {
		if ks = k.Fail(ks, t0); k.Blocked(ks, t0) != 0 {
			t.Fatalf("the key was blocked at failure %d", i+1)
		}
	}
	if ks = k.Fail(ks, t0); k.Blocked(ks, t0) != time.Minute {
		t.Fatalf("the key's failure 101: blocked %s, want a minute", k.Blocked(ks, t0))
	}
}

// TestBackoffCutsGuessingToAHandfulAnHour: a guesser trying a code whenever it is not blocked
// gets 13 tries in its first hour, and about five an hour after (the forgiven pace).
func TestBackoffCutsGuessingToAHandfulAnHour(t *testing.T) {
	b := domain.DefaultAddressBackoff
	var s domain.FailureState
	tries := map[int]int{} // by hour
	for now := t0; now.Before(t0.Add(24 * time.Hour)); {
		if wait := b.Blocked(s, now); wait > 0 {
			now = now.Add(wait)
			continue
		}
		s = b.Fail(s, now)
		tries[int(now.Sub(t0)/time.Hour)]++
	}
	if tries[0] != 13 {
		t.Fatalf("%d tries in the first hour, want 13", tries[0])
	}
	for h := 1; h < 24; h++ {
		if tries[h] > 6 {
			t.Fatalf("%d tries in hour %d: %v", tries[h], h, tries)
		}
	}
}

// TestBackoffForgivesAFailureTakenBack: a failure recorded up front and taken back leaves the
// count as it was, and lifts the block it set, so the next code is not held back; a block set
// by a later failure stands.
func TestBackoffForgivesAFailureTakenBack(t *testing.T) {
	b := domain.DefaultAddressBackoff
	sub := domain.FailureSubject{Key: "address:192.0.2.1", Backoff: b}
	var s domain.FailureState
	for range 5 {
		s = b.Fail(s, t0)
	}
	before := s
	s = b.Fail(s, t0) // the sixth, charged before its code is looked at: it blocks
	charge := domain.FailureCharge{Subject: sub, Before: before, After: s}
	if b.Blocked(s, t0) != time.Minute {
		t.Fatalf("the sixth failure blocked for %s, want a minute", b.Blocked(s, t0))
	}
	s = b.Forgive(s, charge) // its code was valid
	if b.Blocked(s, t0) != 0 || !s.DrainedAt.Equal(before.DrainedAt) {
		t.Fatalf("after taking it back: blocked %s, drained at %s; want %s as before", b.Blocked(s, t0), s.DrainedAt, before.DrainedAt)
	}
	if s = b.Fail(s, t0); b.Blocked(s, t0) != time.Minute {
		t.Fatalf("the next failure: blocked %s, want a minute", b.Blocked(s, t0))
	}

	// A failure charged after ours blocked for longer: taking ours back leaves that block.
	s = before
	s = b.Fail(s, t0)
	ours := domain.FailureCharge{Subject: sub, Before: before, After: s}
	s = b.Fail(s, t0)
	s = b.Forgive(s, ours)
	if b.Blocked(s, t0) != 2*time.Minute {
		t.Fatalf("a later failure's block: %s left, want 2 minutes", b.Blocked(s, t0))
	}
}
