package delivery

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/podiumhq/podium/libs/clock"
)

// Defaults of a Dispatcher.
const (
	DefaultWorkers     = 64
	DefaultPerEndpoint = 4
	DefaultScan        = time.Second
)

// DefaultPerOrganization is an organization's share of a pool of workers: a quarter, and at
// least an endpoint's.
func DefaultPerOrganization(workers, perEndpoint int) int {
	return max(workers/4, perEndpoint)
}

// Dispatcher claims due deliveries and attempts them: at most Workers at once in all,
// PerOrganization per organization and PerEndpoint per endpoint, so that a slow or dead
// endpoint holds only its own deliveries back, and an organization with a backlog or many
// dead endpoints holds only its own share of the pool. It claims when woken (a delivery was stored), at every Scan (retries come due, other
// instances' leases lapse), and when an attempt ends that leaves room for more.
type Dispatcher struct {
	Store Store
	// Client sends the attempts; nil is NewClient(ClientOptions{}).
	Client *Client
	// Clock stamps and decides every attempt; nil is time.Now.
	Clock clock.Clock
	// Workers bounds the attempts in flight (DefaultWorkers when 0); PerEndpoint bounds
	// those of one endpoint (DefaultPerEndpoint when 0) and PerOrganization those of one
	// organization, counted in all instances (Workers/4, at least PerEndpoint, when 0).
	Workers         int
	PerEndpoint     int
	PerOrganization int
	// Wake, when not nil, asks for a claim now.
	Wake <-chan struct{}
	// Scan is how often the due deliveries are claimed besides (DefaultScan when 0).
	Scan time.Duration
	Log  *slog.Logger
	// Random is the source of the retries' jitter, uniform in [0, 1); nil is math/rand/v2.
	Random func() float64
}

func (d *Dispatcher) defaults() {
	if d.Workers <= 0 {
		d.Workers = DefaultWorkers
	}
	if d.PerEndpoint <= 0 {
		d.PerEndpoint = DefaultPerEndpoint
	}
	if d.PerOrganization <= 0 {
		d.PerOrganization = DefaultPerOrganization(d.Workers, d.PerEndpoint)
	}
	if d.Scan <= 0 {
		d.Scan = DefaultScan
	}
	if d.Random == nil {
		d.Random = rand.Float64
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Clock == nil {
		d.Clock = time.Now
	}
	if d.Client == nil {
		d.Client = NewClient(ClientOptions{})
	}
}

// pool is the attempts in flight in this process.
type pool struct {
	busy       int
	byEndpoint map[string]int
	// full says the last claim got all it asked for, so more may be due.
	full bool
	done chan string
	wg   sync.WaitGroup
}

// Run dispatches until ctx ends, then waits for the attempts in flight to be made and
// recorded (each is bounded by the client's timeout).
func (d *Dispatcher) Run(ctx context.Context) error {
	d.defaults()
	gauges, err := observeBacklog()
	if err != nil {
		return err
	}
	defer gauges.close()
	p := &pool{byEndpoint: map[string]int{}, done: make(chan string, d.Workers)}
	defer p.wg.Wait()
	scan := time.NewTicker(d.Scan)
	defer scan.Stop()
	d.claim(ctx, p)
	d.readBacklog(ctx, gauges)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-d.Wake:
			d.claim(ctx, p)
		case <-scan.C:
			d.claim(ctx, p)
			d.readBacklog(ctx, gauges)
		case endpoint := <-p.done:
			wasAtCap := p.finish(endpoint, d.PerEndpoint)
			for drained := false; !drained; {
				select {
				case endpoint := <-p.done:
					wasAtCap = p.finish(endpoint, d.PerEndpoint) || wasAtCap
				default:
					drained = true
				}
			}
			if p.full || wasAtCap {
				d.claim(ctx, p)
			}
		}
	}
}

// finish counts an attempt of endpoint's as ended, and says whether the endpoint had as many
// in flight as it may.
func (p *pool) finish(endpoint string, perEndpoint int) bool {
	atCap := p.byEndpoint[endpoint] >= perEndpoint
	p.busy--
	if p.byEndpoint[endpoint]--; p.byEndpoint[endpoint] <= 0 {
		delete(p.byEndpoint, endpoint)
	}
	return atCap
}

// claim leases as many due deliveries as there are free workers, leaving out the endpoints
// with as many in flight here as they may have, and starts their attempts.
func (d *Dispatcher) claim(ctx context.Context, p *pool) {
	free := d.Workers - p.busy
	if free <= 0 {
		p.full = true
		return
	}
	var skip []string
	for endpoint, n := range p.byEndpoint {
		if n >= d.PerEndpoint {
			skip = append(skip, endpoint)
		}
	}
	now := d.Clock.Now()
	jobs, err := d.Store.Claim(ctx, Claim{
		Now: now, LeaseUntil: now.Add(Lease), Max: free, PerEndpoint: d.PerEndpoint, PerOrganization: d.PerOrganization, Skip: skip,
	})
	if err != nil {
		if ctx.Err() == nil {
			d.Log.ErrorContext(ctx, "claiming due deliveries failed; claiming again at the next scan", "err", err)
		}
		return
	}
	p.full = len(jobs) == free
	for _, j := range jobs {
		p.busy++
		p.byEndpoint[j.EndpointID]++
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			// The attempt outlives ctx: a request under way is finished and recorded.
			d.attempt(context.WithoutCancel(ctx), j)
			p.done <- j.EndpointID
		}()
	}
}

// readBacklog reads the due deliveries into the gauges.
func (d *Dispatcher) readBacklog(ctx context.Context, g *backlogGauges) {
	now := d.Clock.Now()
	b, err := d.Store.Backlog(ctx, now)
	if err != nil {
		if ctx.Err() == nil {
			d.Log.ErrorContext(ctx, "reading the delivery backlog failed; reading it again at the next scan", "err", err)
		}
		return
	}
	g.set(b, now)
}
