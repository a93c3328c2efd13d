package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// webhooksClock is how far ahead of the system clock the webhooks service runs under
// Options.Faults: its CLOCK_SHIFT_FILE, which the service reads again every 100 ms, so that a
// test lets the hours of a retry schedule or a lease pass without waiting for them.
type webhooksClock struct {
	mu   sync.Mutex
	dir  string
	path string
	by   time.Duration
}

// newWebhooksClock makes the shift file, at no shift, in a temporary directory of its own.
func newWebhooksClock() (*webhooksClock, error) {
	dir, err := os.MkdirTemp("", "podium-stack-clock-")
	if err != nil {
		return nil, fmt.Errorf("stack: webhooks clock: %w", err)
	}
	c := &webhooksClock{dir: dir, path: filepath.Join(dir, "webhooks-clock-shift")}
	return c, c.write(0)
}

// write replaces the file at once (a new file renamed over it), so the service never reads
// half of it.
func (c *webhooksClock) write(by time.Duration) error {
	tmp := c.path + ".new"
	if err := os.WriteFile(tmp, []byte(by.String()+"\n"), 0o600); err != nil {
		return fmt.Errorf("stack: webhooks clock: %w", err)
	}
	if err := os.Rename(tmp, c.path); err != nil {
		return fmt.Errorf("stack: webhooks clock: %w", err)
	}
	c.by = by
	return nil
}

func (c *webhooksClock) close() error { return os.RemoveAll(c.dir) }

// AdvanceWebhooksClock moves the webhooks service's clock by d further ahead of the system's
// (Options.Faults): every instance sees it within 100 ms, in its stamps, its leases and its
// retry schedule. The clock only ever moves forward, as time does.
func (s *Stack) AdvanceWebhooksClock(d time.Duration) error {
	if s.webhooksClock == nil {
		return fmt.Errorf("stack: the webhooks clock moves under Options.Faults only")
	}
	if d < 0 {
		return fmt.Errorf("stack: the webhooks clock moves forward only, not by %s", d)
	}
	c := s.webhooksClock
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write(c.by + d)
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
