// Package admission sheds load at the gateway before it reaches an owner, refusing at once what
// cannot be served rather than queueing it.
//
// Each owner has an adaptive concurrency limit (failsafe-go's adaptivelimiter) that follows
// the owner's latency: while the owner answers as fast as its baseline, the limit may grow;
// once recent answers take longer (requests queue there), it falls. A request that finds its
// owner's limit full is refused. Across owners, a shedding level orders requests by priority:
// every calibration, if some owner refused requests since the last one the level rises by a
// quarter of a priority band, and otherwise falls by a twentieth. A request is refused when its
// level, drawn at random within its priority's band, is below it, so that as load grows the
// gateway refuses a growing share of public reads, then of organizer reads, then of writes,
// and never checkout sessions or payment webhooks, which only their owner's limit refuses.
package admission

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go/adaptivelimiter"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Priority orders requests for shedding: the lowest are refused first.
type Priority int32

// Priorities of the gateway's requests, lowest first.
const (
	// Public are the browser surface's reads, which an edge cache or a retry serves as well.
	Public Priority = iota
	// Reads are the organizer surface's reads and searches.
	Reads
	// Writes change registrations or price a purchase.
	Writes
	// Payments create checkout sessions and deliver payment webhooks: money in flight, never
	// refused by the shedding level.
	Payments
	priorities
)

// names name the priorities in metrics.
var names = [priorities]string{"public", "reads", "writes", "payments"}

// band is how many levels a priority spans; a request's level is drawn within its band.
const band = 100

// Steps of the shedding level per calibration: up fast while owners refuse, down slowly.
const (
	calibrateEvery = 50 * time.Millisecond
	raiseBy        = band / 4
	lowerBy        = band / 20
)

// ErrShed is returned for a request refused to keep its owner or the gateway out of overload.
var ErrShed = errors.New("admission: shed to keep the owners out of overload")

// Options shape the owners' limits.
type Options struct {
	// MinLimit, InitialLimit and MaxLimit bound the requests in flight to one owner.
	MinLimit, InitialLimit, MaxLimit uint
	Log                              *slog.Logger
}

// Controller admits requests to the owners.
type Controller struct {
	limiters map[string]adaptivelimiter.AdaptiveLimiter[any]
	// level is the lowest level admitted; fullTop is one more than the highest priority that
	// owners' limits refused since the last calibration (0 when none was).
	level   atomic.Int32
	fullTop atomic.Int32
	log     *slog.Logger
	shed    metric.Int64Counter
	sets    map[string][priorities]metric.AddOption
}

// New returns a controller with one limit per owner.
func New(owners []string, o Options) *Controller {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Controller{limiters: map[string]adaptivelimiter.AdaptiveLimiter[any]{}, log: log, sets: map[string][priorities]metric.AddOption{}}
	meter := otel.Meter("github.com/podiumhq/podium/services/gateway/internal/admission")
	c.shed, _ = meter.Int64Counter("gateway.shed",
		metric.WithDescription("Requests refused to keep the owners out of overload, by owner and priority."))
	_, _ = meter.Int64ObservableGauge("gateway.shedding.level",
		metric.WithDescription("Lowest request level admitted: 0 sheds nothing; each priority spans 100 levels, public reads first."),
		metric.WithInt64Callback(func(_ context.Context, obs metric.Int64Observer) error {
			obs.Observe(int64(c.level.Load()))
			return nil
		}))
	for _, owner := range owners {
		c.limiters[owner] = adaptivelimiter.NewBuilder[any]().
			WithLimits(max(1, o.MinLimit), o.MaxLimit, o.InitialLimit).
			WithRecentWindow(250*time.Millisecond, 5*time.Second, 100).
			WithLogger(log.With("owner", owner)).
			Build()
		var sets [priorities]metric.AddOption
		for p := range sets {
			sets[p] = metric.WithAttributeSet(attribute.NewSet(attribute.String("owner", owner), attribute.String("priority", names[p])))
		}
		c.sets[owner] = sets
	}
	return c
}

// Run recalibrates the shedding level until ctx ends.
func (c *Controller) Run(ctx context.Context) error {
	tick := time.NewTicker(calibrateEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			c.calibrate()
		}
	}
}

// calibrate raises the shedding level towards the band of the highest priority that owners'
// limits refused since the last calibration and lowers it otherwise.
func (c *Controller) calibrate() {
	was := c.level.Load()
	now := max(0, was-lowerBy)
	if top := c.fullTop.Swap(0); top > 0 {
		ceiling := (top - 1) * band
		if was < ceiling {
			now = min(was+raiseBy, ceiling)
		} else {
			now = max(ceiling, now)
		}
	}
	c.level.Store(now)
	switch {
	case was == 0 && now > 0:
		c.log.Warn("shedding: owners are full; refusing the lowest priorities first")
	case was > 0 && now == 0:
		c.log.Info("shedding stopped")
	}
}

// Permit is a place taken for one request: Record it once the owner answered, Drop it when the
// owner was not asked, could not be reached or did not answer in time (none of which says how
// fast it answers).
type Permit = adaptivelimiter.Permit

// Admit takes a place for a request of priority p to owner, or returns ErrShed at once: Check,
// then Acquire.
func (c *Controller) Admit(ctx context.Context, owner string, p Priority) (Permit, error) {
	if err := c.Check(ctx, owner, p); err != nil {
		return nil, err
	}
	return c.Acquire(ctx, owner, p)
}

// Check returns ErrShed at once for a request of priority p that the shedding level refuses
// or that owner has no room for, without taking a place: a caller checks before the request
// spends anything else (its client's rate limits, a wait for them), then Acquires its place.
func (c *Controller) Check(ctx context.Context, owner string, p Priority) error {
	if p < Payments && int32(p)*band+rand.Int32N(band) < c.level.Load() { //nolint:gosec // a draw of who is shed, not a secret
		c.shed.Add(ctx, 1, c.sets[owner][p])
		return ErrShed
	}
	if !c.limiters[owner].CanAcquirePermit() {
		c.refusedFull(p)
		c.shed.Add(ctx, 1, c.sets[owner][p])
		return ErrShed
	}
	return nil
}

// Acquire takes a place for a request of priority p to owner, or returns ErrShed at once when
// the owner has none left; the shedding level is Check's.
func (c *Controller) Acquire(ctx context.Context, owner string, p Priority) (Permit, error) {
	permit, ok := c.limiters[owner].TryAcquirePermit()
	if !ok {
		c.refusedFull(p)
		c.shed.Add(ctx, 1, c.sets[owner][p])
		return nil, ErrShed
	}
	return permit, nil
}

// refusedFull notes that an owner's limit refused a request of priority p.
func (c *Controller) refusedFull(p Priority) {
	for top := c.fullTop.Load(); top <= int32(p); top = c.fullTop.Load() {
		if c.fullTop.CompareAndSwap(top, int32(p)+1) {
			return
		}
	}
}
