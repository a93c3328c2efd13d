package testkit

import (
	"sync"
	"time"
)

// Clock is the clock a service under test runs on, so that tests choose the times it sees: it
// runs with real time (timeouts, leases and deadlines keep working), moved by Advance, until Set
// stops it at a chosen instant, from which only Advance and Set move it. Its zero value is
// ready to use and safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
	// at is the stopped instant; zero while the clock runs.
	at time.Time
}

// Now returns the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() {
		return c.at
	}
	return time.Now().Add(c.offset)
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		c.offset += d
	} else {
		c.at = c.at.Add(d)
	}
}

// Set stops the clock at t: it reads t until Advance or Set moves it.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = t
}
