package keys

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// probeEvery is how often, during an outage, one lookup of a key served stale checks in the
// background whether auth answers again.
const probeEvery = time.Second

var staleServed, _ = otel.Meter("github.com/podiumhq/podium/services/gateway/internal/keys").Int64Counter(
	"gateway.keys.stale_served",
	metric.WithDescription("Keys and origin decisions served past their cache lifetime because auth could not be reached."))

// outage tracks whether auth can be reached, as the last lookups found.
type outage struct {
	log     *slog.Logger
	mu      sync.Mutex
	since   time.Time // start of the current outage; zero while auth answers
	probeAt time.Time // earliest time of the next background probe
}

// observe records the outcome of a lookup made at now: an unreachable auth starts an outage
// (warned about once), any answer ends it.
func (o *outage) observe(ctx context.Context, now time.Time, err error) {
	unreachable := errors.Is(err, ErrUnreachable)
	if !unreachable && err != nil && !errors.Is(err, ErrUnknown) {
		return // auth answered, but not as expected: says nothing about reachability
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case unreachable && o.since.IsZero():
		o.since, o.probeAt = now, now.Add(probeEvery)
		o.log.WarnContext(ctx, "auth unreachable: serving keys known to this instance past their cache lifetime", "err", err)
	case unreachable:
		o.probeAt = now.Add(probeEvery)
	case !o.since.IsZero():
		o.log.InfoContext(ctx, "auth reachable again", "outage", now.Sub(o.since).Round(time.Millisecond))
		o.since = time.Time{}
	}
}

// ongoing reports whether the last lookups found auth unreachable.
func (o *outage) ongoing() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.since.IsZero()
}

// probeDue reports whether a background lookup should check on auth now, and if so claims it
// until the next probe time.
func (o *outage) probeDue(now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if now.Before(o.probeAt) {
		return false
	}
	o.probeAt = now.Add(probeEvery)
	return true
}

// servedStale counts one answer given from a lapsed entry.
func (o *outage) servedStale(ctx context.Context) { staleServed.Add(ctx, 1) }
