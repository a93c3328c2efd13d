package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// shiftClock is how far ahead of the system clock a service's clock runs: the file a service
// reads again every 100 ms (webhooks' CLOCK_SHIFT_FILE under Options.Faults, registration's
// WAITLIST_CLOCK_SHIFT_FILE), so that a test lets the hours of a schedule pass without waiting
// for them.
type shiftClock struct {
	mu   sync.Mutex
	name string
	dir  string
	path string
	by   time.Duration
}

// newShiftClock makes the shift file of the clock name, at no shift, in a temporary directory
// of its own.
func newShiftClock(name string) (*shiftClock, error) {
	dir, err := os.MkdirTemp("", "podium-stack-"+name+"-clock-")
	if err != nil {
		return nil, fmt.Errorf("stack: %s clock: %w", name, err)
	}
	c := &shiftClock{name: name, dir: dir, path: filepath.Join(dir, name+"-clock-shift")}
	return c, c.write(0)
}

// write replaces the file at once (a new file renamed over it), so the service never reads
// half of it.
func (c *shiftClock) write(by time.Duration) error {
	tmp := c.path + ".new"
	if err := os.WriteFile(tmp, []byte(by.String()+"\n"), 0o600); err != nil {
		return fmt.Errorf("stack: %s clock: %w", c.name, err)
	}
	if err := os.Rename(tmp, c.path); err != nil {
		return fmt.Errorf("stack: %s clock: %w", c.name, err)
	}
	c.by = by
	return nil
}

func (c *shiftClock) close() error { return os.RemoveAll(c.dir) }

// advance moves the clock by d further ahead of the system's; it only ever moves forward, as
// time does.
func (c *shiftClock) advance(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("stack: the %s clock moves forward only, not by %s", c.name, d)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write(c.by + d)
}

// AdvanceWebhooksClock moves the webhooks service's clock by d further ahead of the system's
// (Options.Faults): every instance sees it within 100 ms, in its stamps, its leases and its
// retry schedule. The clock only ever moves forward, as time does.
func (s *Stack) AdvanceWebhooksClock(d time.Duration) error {
	if s.webhooksClock == nil {
		return fmt.Errorf("stack: the webhooks clock moves under Options.Faults only")
	}
	return s.webhooksClock.advance(d)
}

// WebhooksNow is the time on the webhooks service's clock: the system's, plus what
// AdvanceWebhooksClock moved it by.
func (s *Stack) WebhooksNow() time.Time {
	if s.webhooksClock == nil {
		return time.Now()
	}
	s.webhooksClock.mu.Lock()
	defer s.webhooksClock.mu.Unlock()
	return time.Now().Add(s.webhooksClock.by)
}

// webhooksClockEnv is the webhooks service's CLOCK_SHIFT_FILE under Options.Faults.
func (s *Stack) webhooksClockEnv() []string {
	if s.webhooksClock == nil {
		return nil
	}
	return []string{"CLOCK_SHIFT_FILE=" + s.webhooksClock.path}
}
