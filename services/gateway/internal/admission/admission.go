// Package admission sheds load at the gateway before it reaches an owner, refusing at once what
// cannot be served rather than queueing it.
//
// Each owner has an adaptive concurrency limit (failsafe-go's adaptivelimiter) that follows
// the owner's latency: while the owner answers as fast as its baseline, the limit may grow;
// once recent answers take longer (requests queue there), it falls. A request that finds its
// owner's limit full is refused. Each owner also has a shedding level that orders its requests
// by priority: every calibration, if the owner's limit refused requests since the last one its
// level rises by a quarter of a priority band, and otherwise falls by a twentieth. A request is
// refused when its level, drawn at random within its priority's band, is below its owner's, so
// that as an owner's load grows the gateway refuses a growing share of its public reads, then
// of its organizer reads, then of its writes, and never checkout sessions or payment webhooks,
// which only their owner's limit refuses.
//
// One owner's refusals shed another owner's requests only while this instance is itself short
// of CPU (its goroutines wait to run): then every request, whichever its owner, competes for
// the same cores, and a gateway-wide level, raised as the owners' are, sheds public reads
// everywhere before a checkout session waits. An owner slowed by its own dependency (checkout
// by Stripe, registration by its database) sheds only its own lower priorities.
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
	// refused by the shedding levels.
	Payments
	priorities
)

// names name the priorities in metrics.
var names = [priorities]string{"public", "reads", "writes", "payments"}

// band is how many levels a priority spans; a request's level is drawn within its band.
const band = 100

// Steps of a shedding level per calibration: up fast while owners refuse, down slowly.
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
	// Starved reports, once per calibration, whether this instance was short of CPU since the
	// last call (nil: its goroutines' wait to run, see schedWait).
	Starved func() bool
	Log     *slog.Logger
}

// Controller admits requests to the owners.
type Controller struct {
	owners map[string]*ownerLimits
	// gateway is the level every owner's requests are also held to: raised by any owner's
	// refusals while this instance is short of CPU.
	gateway level
	starved func() bool
	log     *slog.Logger
	shed    metric.Int64Counter
}

// ownerLimits are one owner's limit and level.
type ownerLimits struct {
	name    string
	limiter adaptivelimiter.AdaptiveLimiter[any]
	level   level
	sets    [priorities]metric.AddOption
}

// level is a shedding level: value is the lowest request level admitted; fullTop is one more
// than the highest priority refused for want of room since the last calibration (0: none was).
type level struct {
	value   atomic.Int32
	fullTop atomic.Int32
}

// New returns a controller with one limit per owner.
func New(owners []string, o Options) *Controller {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	starved := o.Starved
	if starved == nil {
		starved = newSchedWait().starved
	}
	c := &Controller{owners: map[string]*ownerLimits{}, starved: starved, log: log}
	meter := otel.Meter("github.com/podiumhq/podium/services/gateway/internal/admission")
	c.shed, _ = meter.Int64Counter("gateway.shed",
		metric.WithDescription("Requests refused to keep the owners out of overload, by owner and priority."))
	for _, name := range owners {
		own := &ownerLimits{name: name, limiter: adaptivelimiter.NewBuilder[any]().
			WithLimits(max(1, o.MinLimit), o.MaxLimit, o.InitialLimit).
			WithRecentWindow(250*time.Millisecond, 5*time.Second, 100).
			WithLogger(log.With("owner", name)).
			Build()}
		for p := range own.sets {
			own.sets[p] = metric.WithAttributeSet(attribute.NewSet(attribute.String("owner", name), attribute.String("priority", names[p])))
		}
		c.owners[name] = own
	}
	_, _ = meter.Int64ObservableGauge("gateway.shedding.level",
		metric.WithDescription("Lowest request level admitted, by owner: 0 sheds nothing; each priority spans 100 levels, public reads first."),
		metric.WithInt64Callback(func(_ context.Context, obs metric.Int64Observer) error {
			for _, own := range c.owners {
				obs.Observe(int64(c.threshold(own)), metric.WithAttributes(attribute.String("owner", own.name)))
			}
			return nil
		}))
	return c
}

// Run recalibrates the shedding levels until ctx ends.
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

// calibrate moves each owner's level towards the band of the highest priority its limit refused
// since the last calibration, and the gateway-wide level towards the highest any owner refused
// while this instance was short of CPU (otherwise down).
func (c *Controller) calibrate() {
	var top int32
	for _, own := range c.owners {
		t := own.level.fullTop.Swap(0)
		top = max(top, t)
		if was, now := own.level.step(t); was == 0 && now > 0 {
			c.log.Warn("shedding: an owner is full; refusing its lowest priorities first", "owner", own.name)
		} else if was > 0 && now == 0 {
			c.log.Info("shedding stopped", "owner", own.name)
		}
	}
	if !c.starved() {
		top = 0
	}
	if was, now := c.gateway.step(top); was == 0 && now > 0 {
		c.log.Warn("shedding at every owner: this instance is short of CPU and owners are full; refusing the lowest priorities first")
	} else if was > 0 && now == 0 {
		c.log.Info("shedding at every owner stopped")
	}
}

// step raises l towards the band below the priority top-1 (top 0: none refused) or lowers it,
// and returns its value before and after.
func (l *level) step(top int32) (was, now int32) {
	was = l.value.Load()
	now = max(0, was-lowerBy)
	if top > 0 {
		ceiling := (top - 1) * band
		if was < ceiling {
			now = min(was+raiseBy, ceiling)
		} else {
			now = max(ceiling, now)
		}
	}
	l.value.Store(now)
	return was, now
}

// refused notes that a request of priority p found no room.
func (l *level) refused(p Priority) {
	for top := l.fullTop.Load(); top <= int32(p); top = l.fullTop.Load() {
		if l.fullTop.CompareAndSwap(top, int32(p)+1) {
			return
		}
	}
}

// threshold is the lowest request level own admits: its own level or the gateway-wide one.
func (c *Controller) threshold(own *ownerLimits) int32 {
	return max(own.level.value.Load(), c.gateway.value.Load())
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

// Check returns ErrShed at once for a request of priority p that the shedding levels refuse
// or that owner has no room for, without taking a place: a caller checks before the request
// spends anything else (its client's rate limits, a wait for them), then Acquires its place.
func (c *Controller) Check(ctx context.Context, owner string, p Priority) error {
	own := c.owners[owner]
	if p < Payments && int32(p)*band+rand.Int32N(band) < c.threshold(own) { //nolint:gosec // a draw of who is shed, not a secret
		c.shed.Add(ctx, 1, own.sets[p])
		return ErrShed
	}
	if !own.limiter.CanAcquirePermit() {
		own.level.refused(p)
		c.shed.Add(ctx, 1, own.sets[p])
		return ErrShed
	}
	return nil
}

// Acquire takes a place for a request of priority p to owner, or returns ErrShed at once when
// the owner has none left; the shedding levels are Check's.
func (c *Controller) Acquire(ctx context.Context, owner string, p Priority) (Permit, error) {
	own := c.owners[owner]
	permit, ok := own.limiter.TryAcquirePermit()
	if !ok {
		own.level.refused(p)
		c.shed.Add(ctx, 1, own.sets[p])
		return nil, ErrShed
	}
	return permit, nil
}
