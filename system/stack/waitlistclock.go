package stack

import "time"

// AdvanceWaitlistClock moves registration's waitlist clock by d further ahead of the system's:
// every instance sees it within 100 ms, in the offers it makes and the ones it lapses. It only
// moves forward.
func (s *Stack) AdvanceWaitlistClock(d time.Duration) error {
	return s.waitlistClock.advance(d)
}

// waitlistClockEnv is registration's WAITLIST_CLOCK_SHIFT_FILE.
func (s *Stack) waitlistClockEnv() []string {
	return []string{"WAITLIST_CLOCK_SHIFT_FILE=" + s.waitlistClock.path}
}
