package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/system/stack"
)

// gatewayRate is the open-loop rate at which the gateway's added latency is measured.
const gatewayRate = 2000

// GatewayOverhead compares an authenticated, rate-limited GET through the gateway with the same
// GET sent straight to its owner, through a bare nginx proxy and through a bare Go proxy
// (fasthttp, as the gateway) in front of it, alternating rounds so all four see the same
// machine.
func GatewayOverhead(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	path := "/external/v1/organizer/events/evt_benchmark"
	token, err := s.IdentityToken(identity.Catalog, identity.Principal{
		OrganizerID: d.OrganizerID, KeyID: d.SecretAll.ID, KeyType: identity.Secret, Scopes: d.SecretAll.Scopes,
	})
	if err != nil {
		return err
	}
	owner := map[string]string{identity.Header: token, identity.HeaderClientIP: "127.0.0.1"}
	nginx, err := StartNginx(ctx, strings.TrimPrefix(s.URLs["catalog"], "http://"), owner, 2)
	if err != nil {
		return err
	}
	defer nginx.Close()
	bare, err := StartBareProxy(ctx, strings.TrimPrefix(s.URLs["catalog"], "http://"), owner)
	if err != nil {
		return err
	}
	defer bare.Close()
	direct := Target{Name: "direct to catalog", Method: "GET", URL: s.URLs["catalog"] + path, Status: 404, Headers: owner}
	viaNginx := Target{Name: "through bare nginx", Method: "GET", URL: nginx.URL + path, Status: 404}
	viaGateway := Target{Name: "through the gateway", Method: "GET", URL: s.GatewayURL() + path, Status: 404,
		Headers: map[string]string{"Authorization": "Bearer " + d.SecretAll.Key}}
	viaBare := Target{Name: "through bare Go proxy", Method: "GET", URL: bare.URL + path, Status: 404}
	procs, err := nginx.Processes()
	if err != nil {
		return err
	}
	procs["gateway"], procs["catalog"], procs["generator"], procs["bare"] = s.PID("gateway"), s.PID("catalog"), os.Getpid(), bare.PID()
	targets := []Target{direct, viaNginx, viaGateway, viaBare}
	open := o
	open.Rate = gatewayRate
	runs, err := alternate(ctx, targets, open, procs)
	if err != nil {
		return err
	}
	dr := runs[0]
	fmt.Fprintf(out, "\nGateway overhead: GET %s at %d req/s open loop, %d requests per path\n", path, open.Rate, runs[2].Requests)
	proxies := []string{"", "nginx", "gateway", "bare"}
	for i, r := range runs {
		fmt.Fprintf(out, "  %-22s p50 %8s   p99 %8s   added p99 %8s   catalog CPU %6s/req   proxy CPU %6s/req\n", r.Target,
			us(r.Quantile(0.5)), us(r.Quantile(0.99)), us(r.Quantile(0.99)-dr.Quantile(0.99)), us(r.CPUPerRequest("catalog")), us(proxyCPU(r, proxies[i])))
	}
	added := runs[2].Quantile(0.99) - dr.Quantile(0.99)
	fmt.Fprintf(out, "  added p99 by the gateway %s (target <= 1ms: %s); by nginx %s\n",
		us(added), verdict(added <= time.Millisecond), us(runs[1].Quantile(0.99)-dr.Quantile(0.99)))

	// Throughput and CPU per request are costs under load: at a low fixed rate CPU is dominated
	// by the runtime waking up for each request, so they are measured closed-loop.
	loaded := o
	loaded.Rate = 0
	sat, err := alternate(ctx, targets, loaded, procs)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  under load (%d concurrent requests):\n", o.Workers)
	for i, r := range sat {
		fmt.Fprintf(out, "  %-22s %7.0f req/s   catalog CPU %6s/req   proxy CPU %6s/req   load generator CPU %6s/req\n",
			r.Target, r.Throughput(), us(r.CPUPerRequest("catalog")), us(proxyCPU(r, proxies[i])), us(r.CPUPerRequest("generator")))
	}
	ng, gw, bg := sat[1], sat[2], sat[3]
	ratio, cpu := gw.Throughput()/ng.Throughput(), proxyCPU(gw, "gateway")
	fmt.Fprintf(out, "  gateway / bare nginx: throughput %.2fx (target >= 1.0x: %s), proxy CPU %.2fx (gateway %s/req, target <= 30us: %s)\n",
		ratio, verdict(ratio >= 1), float64(cpu)/float64(proxyCPU(ng, "nginx")), us(cpu), verdict(cpu <= 30*time.Microsecond))
	bareCPU := proxyCPU(bg, "bare")
	fmt.Fprintf(out, "  bare Go proxy / bare nginx: throughput %.2fx, proxy CPU %.2fx; the gateway's own work (keys, limits, identity, admission, telemetry) %s/req over the bare Go proxy's %s\n",
		bg.Throughput()/ng.Throughput(), float64(bareCPU)/float64(proxyCPU(ng, "nginx")), us(cpu-bareCPU), us(bareCPU))
	return nil
}

// proxyCPU is the CPU per request of the processes whose names start with proxy (the gateway,
// or nginx's master and workers together); none for an empty proxy.
func proxyCPU(r Result, proxy string) time.Duration {
	if r.Requests == 0 || proxy == "" {
		return 0
	}
	var total time.Duration
	for name, cpu := range r.CPU {
		if strings.HasPrefix(name, proxy) {
			total += cpu
		}
	}
	return total / time.Duration(r.Requests)
}

// RunOptions shapes every scenario.
type RunOptions struct {
	Rate    int
	Workers int
	Round   time.Duration
	Rounds  int
	Warmup  time.Duration
	// Counters are read around each run (Options.Counters).
	Counters func() (map[string]float64, error)
}

// alternate warms each target up, then runs them in turn for o.Rounds rounds and merges each
// target's rounds into one result.
func alternate(ctx context.Context, targets []Target, o RunOptions, procs map[string]int) ([]Result, error) {
	makers := make([]func() (Target, error), len(targets))
	for i, t := range targets {
		makers[i] = func() (Target, error) { return t, nil }
	}
	return alternateFresh(ctx, makers, o, func() map[string]int { return procs })
}

// alternateFresh is alternate for targets made anew before each run: it warms each up, then
// runs them in turn for o.Rounds rounds and merges each target's rounds into one result. The
// processes watched are asked for before each run (database backends come with connections).
func alternateFresh(ctx context.Context, makers []func() (Target, error), o RunOptions, procs func() map[string]int) ([]Result, error) {
	runOne := func(newTarget func() (Target, error), d time.Duration) (Result, error) {
		t, err := newTarget()
		if err != nil {
			return Result{}, err
		}
		return Run(ctx, t, Options{Rate: rateOf(t, o), Workers: o.Workers, Duration: d, Processes: procs(), Counters: o.Counters})
	}
	for _, m := range makers {
		if o.Warmup == 0 {
			break
		}
		if _, err := runOne(m, o.Warmup); err != nil {
			return nil, err
		}
	}
	merged := make([]Result, len(makers))
	for range o.Rounds {
		for i, m := range makers {
			r, err := runOne(m, o.Round)
			if err != nil {
				return nil, err
			}
			merged[i] = merge(merged[i], r)
		}
	}
	return merged, nil
}

// rateOf is the target's own rate, else the scenario's.
func rateOf(t Target, o RunOptions) int {
	if t.Rate > 0 {
		return t.Rate
	}
	return o.Rate
}

func merge(a, b Result) Result {
	if a.Target == "" {
		return b
	}
	a.Requests += b.Requests
	a.Refused += b.Refused
	a.Failed += b.Failed
	a.Elapsed += b.Elapsed
	a.Latency.Merge(b.Latency)
	a.RefusedLatency.Merge(b.RefusedLatency)
	for k, v := range b.CPU {
		a.CPU[k] += v
	}
	for k, v := range b.Counters {
		a.Counters[k] += v
	}
	return a
}

func us(d time.Duration) string { return fmt.Sprintf("%.0fus", float64(d)/float64(time.Microsecond)) }

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}
