// Package admission sheds load at the gateway before it reaches an owner. Each owner has an
// adaptive concurrency limit (failsafe-go's adaptivelimiter) that follows the owner's latency:
// while the owner answers as fast as it did, the limit may grow; once recent answers take
// longer than the baseline (requests queue there), it falls. Requests over the limit wait in a
// short queue, and when the queues grow the owners' limiters, which share one prioritizer,
// refuse requests at once, lowest priority first: public reads before organizer reads, reads
// before writes, and checkout sessions and payment webhooks last.
package admission

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/failsafe-go/failsafe-go/adaptivelimiter"
	"github.com/failsafe-go/failsafe-go/priority"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Priority orders requests for shedding: the lowest are refused first.
type Priority = priority.Priority

// Priorities of the gateway's requests.
const (
	// Public are the browser surface's reads, which an edge cache or a retry serves as well.
	Public = priority.Low
	// Reads are the organizer surface's reads and searches.
	Reads = priority.Medium
	// Writes change registrations or price a purchase.
	Writes = priority.High
	// Payments create checkout sessions and deliver payment webhooks: money in flight.
	Payments = priority.VeryHigh
)

// names name the priorities in metrics.
var names = [...]string{priority.VeryLow: "very-low", Public: "public", Reads: "reads", Writes: "writes", Payments: "payments"}

// ErrShed is returned for a request refused to keep its owner out of overload.
var ErrShed = errors.New("admission: shed to keep the owner out of overload")

// Options shape the owners' limits.
type Options struct {
	// MaxWait bounds how long a request waits in its owner's queue for a place.
	MaxWait time.Duration
	// InitialLimit and MaxLimit bound the requests in flight to one owner.
	InitialLimit, MaxLimit uint
	Log                    *slog.Logger
}

// calibrateEvery is how often the prioritizer recomputes which priorities it refuses.
const calibrateEvery = 50 * time.Millisecond

// Controller admits requests to the owners.
type Controller struct {
	prioritizer priority.Prioritizer
	limiters    map[string]adaptivelimiter.PriorityLimiter[any]
	maxWait     time.Duration
	shed        metric.Int64Counter
	sets        map[string][priority.VeryHigh + 1]metric.AddOption
}

// New returns a controller with one limit per owner.
func New(owners []string, o Options) *Controller {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Controller{
		prioritizer: adaptivelimiter.NewPrioritizerBuilder().OnThresholdChanged(func(e priority.ThresholdChangedEvent) {
			log.Warn("shedding: the lowest admitted priority level changed", "from", e.OldThreshold, "to", e.NewThreshold)
		}).Build(),
		limiters: map[string]adaptivelimiter.PriorityLimiter[any]{},
		maxWait:  o.MaxWait,
		sets:     map[string][priority.VeryHigh + 1]metric.AddOption{},
	}
	c.shed, _ = otel.Meter("github.com/podiumhq/podium/services/gateway/internal/admission").Int64Counter(
		"gateway.shed", metric.WithDescription("Requests refused to keep an owner out of overload, by owner and priority."))
	for _, owner := range owners {
		c.limiters[owner] = adaptivelimiter.NewBuilder[any]().
			WithLimits(1, o.MaxLimit, o.InitialLimit).
			WithRecentWindow(250*time.Millisecond, 5*time.Second, 100).
			BuildPrioritized(c.prioritizer)
		var sets [priority.VeryHigh + 1]metric.AddOption
		for p := range sets {
			sets[p] = metric.WithAttributeSet(attribute.NewSet(attribute.String("owner", owner), attribute.String("priority", names[p])))
		}
		c.sets[owner] = sets
	}
	return c
}

// Run recalibrates the priorities refused until ctx ends.
func (c *Controller) Run(ctx context.Context) error {
	stop := c.prioritizer.ScheduleCalibrations(ctx, calibrateEvery)
	<-ctx.Done()
	stop()
	return nil
}

// Admits reports whether a request of priority p to owner would be admitted now: routes ask
// before they spend a rate limit or a body validation on a request that would be shed.
func (c *Controller) Admits(ctx context.Context, owner string, p Priority) bool {
	if c.limiters[owner].CanAcquirePermitWithPriority(ctx, p) {
		return true
	}
	c.shed.Add(ctx, 1, c.sets[owner][p])
	return false
}

// Permit is a place taken for one request: Record it once the owner answered, Drop it when the
// owner could not be reached or did not answer in time (neither says how fast it answers).
type Permit = adaptivelimiter.Permit

// Admit takes a place for a request of priority p to owner, waiting up to MaxWait in the
// owner's queue, or returns ErrShed.
func (c *Controller) Admit(ctx context.Context, owner string, p Priority) (Permit, error) {
	permit, err := c.limiters[owner].AcquirePermitWithMaxWait(priority.ContextWithPriority(ctx, p), c.maxWait)
	if errors.Is(err, adaptivelimiter.ErrExceeded) {
		c.shed.Add(ctx, 1, c.sets[owner][p])
		return nil, ErrShed
	}
	return permit, err
}
