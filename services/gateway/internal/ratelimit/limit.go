// Package ratelimit enforces request limits in Redis with go-redis/redis_rate (GCRA), shared by
// every gateway instance. When Redis fails, it limits in-process instead (never unlimited) and
// probes Redis again after a short pause, so an outage costs neither availability nor latency.
package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-redis/redis_rate/v10"
)

// Limit is a rate with a burst equal to the rate, written as "<n>/<unit>" with unit s, m or h.
type Limit = redis_rate.Limit

// ParseLimit parses "50/s", "10/m" or "100/h"; "0" or "" disables the limit.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return Limit{}, nil
	}
	n, unit, ok := strings.Cut(s, "/")
	rate, err := strconv.Atoi(n)
	if !ok || err != nil || rate <= 0 {
		return Limit{}, fmt.Errorf("ratelimit: %q is not <positive count>/<s|m|h>", s)
	}
	switch unit {
	case "s":
		return redis_rate.PerSecond(rate), nil
	case "m":
		return redis_rate.PerMinute(rate), nil
	case "h":
		return redis_rate.PerHour(rate), nil
	}
	return Limit{}, fmt.Errorf("ratelimit: %q: unit must be s, m or h", s)
}

// Decision is the outcome of one check.
type Decision struct {
	Allowed   bool
	Limit     Limit
	Remaining int
	// RetryAfter is how long to wait before retrying when not allowed.
	RetryAfter time.Duration
	// ResetAfter is how long until the full burst is available again.
	ResetAfter time.Duration
}

// Tighter returns whichever of d and o leaves the caller less room: a refusal first, then the
// fewest remaining requests. Responses report the tightest limit that applied.
func (d Decision) Tighter(o Decision) Decision {
	if d.Allowed != o.Allowed {
		if !d.Allowed {
			return d
		}
		return o
	}
	if o.Remaining < d.Remaining {
		return o
	}
	return d
}

// Setting is a Limit read from configuration text such as "50/s".
type Setting struct{ Limit }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Setting) UnmarshalText(b []byte) error {
	l, err := ParseLimit(string(b))
	s.Limit = l
	return err
}

// String renders the setting for logs.
func (s Setting) String() string {
	if s.IsZero() {
		return "off"
	}
	return s.Limit.String()
}
