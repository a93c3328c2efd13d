// Package fleet counts the gateway instances running now and derives from their number the
// share of each rate limit one instance allows while Redis is down. Every instance keeps a
// consumer group of its own on Kafka with one member for as long as it runs (its key-event
// listener's), so the members of those groups are the instances.
package fleet

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// Options configure a Counter.
type Options struct {
	// Members returns the members of the instances' groups that have any (broker.GroupMembers):
	// one per instance running now (two instances given the same ID share one group).
	Members func(ctx context.Context) (map[string]int, error)
	// Self is this instance's group: a count without it is not current (this instance has not
	// joined yet, or is joining again) and counts for nothing.
	Self string
	// Max is the most instances that may run at once: the number used while none is counted.
	Max int
	// Interval is how often the instances are counted. Hold is how long a count is believed:
	// the largest count read within the last Hold is the one used, so an instance that left is
	// forgotten only Hold later (it may still be draining its last requests); when none was
	// read within Hold (start-up, Kafka unreachable), Max is used.
	Interval, Hold time.Duration
	// Timeout bounds one count; a count that takes longer fails.
	Timeout time.Duration
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Share receives the share of each limit this instance allows, one over the instances: at
	// once from New, then each time it changes.
	Share func(share float64)
	Log   *slog.Logger
}

// Counter keeps the number of instances the share is derived from.
type Counter struct {
	opts Options
	mu   sync.Mutex
	// counts are the counts read within Hold, oldest first.
	counts  []count
	failing bool
	// instances is the number in use; counted says whether it was counted or is Max.
	instances atomic.Int64
	counted   atomic.Bool
}

type count struct {
	at time.Time
	n  int
}

// errNotListed is a listing that lacks this instance's own group.
var errNotListed = errors.New("fleet: this instance's group has no member yet")

// New returns a Counter that uses Max instances until it has counted them, and passes the
// share of Max to opts.Share at once. Its gauges report the instances and the share in use.
func New(opts Options) *Counter {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c := &Counter{opts: opts}
	c.instances.Store(int64(opts.Max))
	opts.Share(c.Share())
	meter := otel.Meter("github.com/podiumhq/podium/services/gateway/internal/fleet")
	_, _ = meter.Int64ObservableGauge("gateway.instances",
		metric.WithDescription("Gateway instances the rate-limit share is derived from: those counted on Kafka, or the configured maximum while none are."),
		metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			o.Observe(c.instances.Load())
			return nil
		}))
	_, _ = meter.Float64ObservableGauge("gateway.rate_limit.local_share",
		metric.WithDescription("Share of each rate limit this instance allows while Redis is down."),
		metric.WithFloat64Callback(func(_ context.Context, o metric.Float64Observer) error {
			o.Observe(c.Share())
			return nil
		}))
	return c
}

// Share returns the share of each limit this instance allows now: one over the instances.
func (c *Counter) Share() float64 { return 1 / float64(c.instances.Load()) }

// Instances returns the number of instances in use and whether it was counted (rather than
// being the configured maximum).
func (c *Counter) Instances() (int, bool) { return int(c.instances.Load()), c.counted.Load() }

// Run counts the instances every Interval until ctx ends.
func (c *Counter) Run(ctx context.Context) error {
	tick := time.NewTicker(c.opts.Interval)
	defer tick.Stop()
	for {
		c.Count(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// Count counts the live instances once and updates the number in use.
func (c *Counter) Count(ctx context.Context) {
	lctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	members, err := c.opts.Members(lctx)
	cancel()
	if ctx.Err() != nil {
		return
	}
	if err == nil && members[c.opts.Self] == 0 {
		err = errNotListed
	}
	now := c.opts.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.report(ctx, err)
	if err == nil {
		n := 0
		for _, m := range members {
			n += m
		}
		c.counts = append(c.counts, count{at: now, n: n})
	}
	c.counts = slices.DeleteFunc(c.counts, func(k count) bool { return now.Sub(k.at) >= c.opts.Hold })
	n, counted := c.opts.Max, len(c.counts) > 0
	if counted {
		n = slices.MaxFunc(c.counts, func(a, b count) int { return a.n - b.n }).n
	}
	c.use(ctx, n, counted)
}

// report logs the first failure to count (c.mu held) and the first success after it. A count
// without this instance's own group is no failure: it is how every start begins.
func (c *Counter) report(ctx context.Context, err error) {
	switch {
	case errors.Is(err, errNotListed):
		c.opts.Log.DebugContext(ctx, "counting gateway instances: this instance's group is not live yet", "group", c.opts.Self)
	case err != nil && !c.failing:
		c.failing = true
		c.opts.Log.WarnContext(ctx, "counting gateway instances failed; the last count holds until it is older than the hold", "err", err, "hold", c.opts.Hold)
	case err == nil && c.failing:
		c.failing = false
		c.opts.Log.InfoContext(ctx, "counting gateway instances again")
	}
}

// use makes n the number of instances in use (c.mu held), logging and passing on a change.
func (c *Counter) use(ctx context.Context, n int, counted bool) {
	if int64(n) == c.instances.Load() && counted == c.counted.Load() {
		return
	}
	c.instances.Store(int64(n))
	c.counted.Store(counted)
	c.opts.Share(c.Share())
	c.opts.Log.InfoContext(ctx, "rate-limit share while Redis is down", "instances", n, "counted", counted, "share", c.Share())
}
