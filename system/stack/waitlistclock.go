package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// newWaitlistClock makes registration's WAITLIST_CLOCK_SHIFT_FILE, at no shift: the clock of
// the waitlist's offers and lapses alone, so a test lets an offer's day pass while every hold
// and order keeps the system's time.
func newWaitlistClock() (*webhooksClock, error) {
	dir, err := os.MkdirTemp("", "podium-stack-waitlist-clock-")
	if err != nil {
		return nil, fmt.Errorf("stack: waitlist clock: %w", err)
	}
	c := &webhooksClock{dir: dir, path: filepath.Join(dir, "waitlist-clock-shift")}
	return c, c.write(0)
}

// AdvanceWaitlistClock moves registration's waitlist clock by d further ahead of the system's:
// every instance sees it within 100 ms, in the offers it makes and the ones it lapses. It only
// moves forward.
func (s *Stack) AdvanceWaitlistClock(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("stack: the waitlist clock moves forward only, not by %s", d)
	}
	c := s.waitlistClock
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write(c.by + d)
}

// waitlistClockEnv is registration's WAITLIST_CLOCK_SHIFT_FILE.
func (s *Stack) waitlistClockEnv() []string {
	return []string{"WAITLIST_CLOCK_SHIFT_FILE=" + s.waitlistClock.path}
}
