package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/system/stack"
)

// GatewayOverhead compares an authenticated, rate-limited GET through the gateway with the same
// GET sent straight to its owner, alternating rounds so both see the same machine.
func GatewayOverhead(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	path := "/external/v1/organizer/events/evt_benchmark"
	token, err := s.IdentityToken(identity.Catalog, identity.Principal{
		OrganizerID: d.OrganizerID, KeyID: d.SecretAll.ID, KeyType: identity.Secret, Scopes: d.SecretAll.Scopes,
	})
	if err != nil {
		return err
	}
	direct := Target{Name: "direct to catalog", Method: "GET", URL: s.URLs["catalog"] + path, Status: 404,
		Headers: map[string]string{identity.Header: token, identity.HeaderClientIP: "127.0.0.1"}}
	viaGateway := Target{Name: "through the gateway", Method: "GET", URL: s.GatewayURL() + path, Status: 404,
		Headers: map[string]string{"Authorization": "Bearer " + d.SecretAll.Key}}
	procs := map[string]int{"gateway": s.PID("gateway"), "catalog": s.PID("catalog")}
	runs, err := alternate(ctx, []Target{direct, viaGateway}, o, procs)
	if err != nil {
		return err
	}
	dr, gr := runs[0], runs[1]
	addedP50, addedP99 := gr.Quantile(0.5)-dr.Quantile(0.5), gr.Quantile(0.99)-dr.Quantile(0.99)
	fmt.Fprintf(out, "\nGateway overhead: GET %s at %d req/s, %d requests per path\n", path, o.Rate, gr.Requests)
	fmt.Fprintf(out, "  %-22s p50 %8s   p99 %8s   catalog CPU %6s/req\n", dr.Target, us(dr.Quantile(0.5)), us(dr.Quantile(0.99)), us(dr.CPUPerRequest("catalog")))
	fmt.Fprintf(out, "  %-22s p50 %8s   p99 %8s   catalog CPU %6s/req   gateway CPU %6s/req\n", gr.Target, us(gr.Quantile(0.5)), us(gr.Quantile(0.99)), us(gr.CPUPerRequest("catalog")), us(gr.CPUPerRequest("gateway")))
	fmt.Fprintf(out, "  added by the gateway:  p50 %8s   p99 %8s   (target p99 <= 1ms: %s)\n", us(addedP50), us(addedP99), verdict(addedP99 <= time.Millisecond))

	// CPU per request is a cost under load: at a low fixed rate it is dominated by the
	// runtime waking up for each request, so it is measured closed-loop as well.
	loaded := o
	loaded.Rate = 0
	sat, err := alternate(ctx, []Target{direct, viaGateway}, loaded, procs)
	if err != nil {
		return err
	}
	sd, sg := sat[0], sat[1]
	cpu := sg.CPUPerRequest("gateway")
	fmt.Fprintf(out, "  under load (%d concurrent requests):\n", o.Workers)
	fmt.Fprintf(out, "  %-22s %7.0f req/s   catalog CPU %6s/req\n", sd.Target, sd.Throughput(), us(sd.CPUPerRequest("catalog")))
	fmt.Fprintf(out, "  %-22s %7.0f req/s   catalog CPU %6s/req   gateway CPU %6s/req (target <= 50us: %s)\n",
		sg.Target, sg.Throughput(), us(sg.CPUPerRequest("catalog")), us(cpu), verdict(cpu <= 50*time.Microsecond))
	return nil
}

// RunOptions shapes every scenario.
type RunOptions struct {
	Rate    int
	Workers int
	Round   time.Duration
	Rounds  int
	Warmup  time.Duration
}

// alternate warms each target up, then runs them in turn for o.Rounds rounds and merges each
// target's rounds into one result.
func alternate(ctx context.Context, targets []Target, o RunOptions, procs map[string]int) ([]Result, error) {
	for _, t := range targets {
		if _, err := Run(ctx, t, Options{Rate: rateOf(t, o), Workers: o.Workers, Duration: o.Warmup, Processes: procs}); err != nil {
			return nil, err
		}
	}
	merged := make([]Result, len(targets))
	for range o.Rounds {
		for i, t := range targets {
			r, err := Run(ctx, t, Options{Rate: rateOf(t, o), Workers: o.Workers, Duration: o.Round, Processes: procs})
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
	a.Errors += b.Errors
	a.Elapsed += b.Elapsed
	a.Latencies = append(a.Latencies, b.Latencies...)
	sortDurations(a.Latencies)
	for k, v := range b.CPU {
		a.CPU[k] += v
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
