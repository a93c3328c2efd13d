package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// Shape and targets of the overload scenario.
const (
	// kneeWorkers find a surface's knee: enough clients at once to keep it busy.
	kneeWorkers = 64
	// overloadWorkers offer twice the knee open loop: enough clients that the schedule never
	// waits for a free one, so the rate offered is the rate asked for.
	overloadWorkers = 768
	// overloadTimeout is how long a client waits for an answer before it counts a failure.
	overloadTimeout = 5 * time.Second

	goodputTarget    = 0.9
	refusalP99Target = time.Millisecond
)

// Overload drives each surface past what the machine serves and shows how the gateway sheds:
// first the surface's knee (the most answers per second a closed loop of kneeWorkers clients
// gets), then twice that rate offered open loop. Goodput (answers with the expected status per
// second) should stay near the knee's and refusals (429 or 503 with Retry-After) be answered in
// well under a millisecond, as the generator sees them and inside the gateway. The organizer
// surface is measured on registration creates, the
// browser surface on event searches that reach the catalog (each body its own, so the edge
// cache keeps none). Then the searches are offered at twice their knee again with checkout
// sessions at half their own knee at the same time: the sessions must be served ahead of the
// searches. (Sessions at half their knee take about half the machine, so that run says which
// is served first, not what either gets alone.)
func Overload(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	fmt.Fprintf(out, "\nOverload: each surface at its knee (closed loop, %d clients), then at twice the knee open loop (%d clients, %v timeout)\n",
		kneeWorkers, overloadWorkers, overloadTimeout)
	// The load generator's process also runs the stack's Kafka broker, which carries the
	// creates' events.
	procs := map[string]int{"generator+broker": os.Getpid()}
	for _, name := range []string{"gateway", "catalog", "registration", "checkout"} {
		procs[name] = s.PID(name)
	}
	creates, err := overloadCreates(ctx, s, d)
	if err != nil {
		return err
	}
	if err := overloadSurface(ctx, o, out, procs, s.GatewayURL(), "organizer surface: registration creates", creates); err != nil {
		return err
	}
	searches := publicSearches(s, d)
	if err := overloadSurface(ctx, o, out, procs, s.GatewayURL(), "browser surface: event searches", searches); err != nil {
		return err
	}
	sessions, err := newCheckoutPaths(ctx, s, d)
	if err != nil {
		return err
	}
	session := sessions.create
	session.Name, session.Rate = "checkout sessions", 0
	return sessionsFirst(ctx, o, out, searches, session)
}

// overloadSurface finds t's knee, then offers t at twice it and prints what it got, with the
// refusals' times as the generator saw them and as the gateway (at base) did.
func overloadSurface(ctx context.Context, o RunOptions, out io.Writer, procs map[string]int, gateway, name string, t Target) error {
	atKnee, err := kneeRun(ctx, t, o, procs)
	if err != nil {
		return err
	}
	knee := atKnee.Throughput()
	t.Refusals = true
	before, err := scrapeRefusalTimes(ctx, gateway)
	if err != nil {
		return err
	}
	runs, err := runTogether(ctx, []Target{t}, []int{int(2 * knee)}, time.Duration(o.Rounds)*o.Round, procs)
	if err != nil {
		return err
	}
	after, err := scrapeRefusalTimes(ctx, gateway)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %s: knee %.0f/s\n", name, knee)
	fmt.Fprintf(out, "    cores used at the knee:%s\n", coresUsed(atKnee))
	fmt.Fprintf(out, "    cores used at twice the knee:%s\n", coresUsed(runs[0]))
	printOffered(out, runs[0])
	share := runs[0].Throughput() / knee
	p99 := runs[0].RefusedQuantile(0.99)
	fmt.Fprintf(out, "    at twice the knee: goodput %.0f%% of the knee (target >= %.0f%%: %s), refusals' p99 %s (target < %s: %s)\n",
		100*share, 100*goodputTarget, verdict(share >= goodputTarget), us(p99), us(refusalP99Target), verdict(p99 < refusalP99Target))
	for _, status := range refusalStatuses {
		inside, limit := after[status].since(before[status]), refusalP99Target.Seconds()
		if inside.count == 0 {
			continue
		}
		fmt.Fprintf(out, "    inside the gateway (its handler's start to its answer), %d refusals %d: %.1f%% within 0.5ms, %.1f%% within 1ms: p99 within %s (target < 1ms there: %s)\n",
			inside.count, status, 100*inside.within(limit/2), 100*inside.within(limit), seconds(inside.quantileBound(0.99)), verdict(inside.within(limit) >= 0.99))
	}
	return nil
}

// seconds prints a histogram bound in seconds as a duration.
func seconds(s float64) string {
	if math.IsInf(s, 1) {
		return "+Inf"
	}
	return fromSeconds(s).String()
}

// sessionsFirst offers the searches at twice their knee and the sessions at half theirs, at
// once, and prints the share of each that was served: the sessions' must be whole.
func sessionsFirst(ctx context.Context, o RunOptions, out io.Writer, searches, sessions Target) error {
	searchKnee, err := kneeOf(ctx, searches, o)
	if err != nil {
		return err
	}
	sessionKnee, err := kneeOf(ctx, sessions, o)
	if err != nil {
		return err
	}
	searches.Refusals, sessions.Refusals = true, true
	runs, err := runTogether(ctx, []Target{searches, sessions}, []int{int(2 * searchKnee), max(1, int(sessionKnee/2))}, time.Duration(o.Rounds)*o.Round, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %s at twice their knee (%.0f/s) with %s at half theirs (%.0f/s), at once:\n", searches.Name, 2*searchKnee, sessions.Name, sessionKnee/2)
	for _, r := range runs {
		printOffered(out, r)
	}
	served := func(r Result) float64 { return float64(r.Requests) / float64(max(1, r.Requests+r.Refused+r.Failed)) }
	fmt.Fprintf(out, "    %.1f%% of the %s served, against %.1f%% of the %s (target: sessions first: %s)\n",
		100*served(runs[1]), sessions.Name, 100*served(runs[0]), searches.Name, verdict(served(runs[1]) >= 0.99))
	return nil
}

// printOffered prints what r offered and what of it was served, refused and failed.
func printOffered(out io.Writer, r Result) {
	offered := float64(r.Requests+r.Refused+r.Failed) / r.Elapsed.Seconds()
	fmt.Fprintf(out, "    %-20s offered %6.0f/s   goodput %6.0f/s (p50 %8s p99 %8s)   refused %6.0f/s (p50 %7s p99 %7s)   failed %d\n",
		r.Target, offered, r.Throughput(), ms(r.Quantile(0.5)), ms(r.Quantile(0.99)),
		float64(r.Refused)/r.Elapsed.Seconds(), us(r.RefusedQuantile(0.5)), us(r.RefusedQuantile(0.99)), r.Failed)
}

// kneeOf is the most answers per second t gets from kneeWorkers clients in a closed loop.
func kneeOf(ctx context.Context, t Target, o RunOptions) (float64, error) {
	r, err := kneeRun(ctx, t, o, nil)
	return r.Throughput(), err
}

// kneeRun runs t from kneeWorkers clients in a closed loop after a warm-up (which also lets a
// shedding level left by an earlier surface fall), watching procs' CPU time.
func kneeRun(ctx context.Context, t Target, o RunOptions, procs map[string]int) (Result, error) {
	t.Refusals = true
	if _, err := Run(ctx, t, Options{Workers: kneeWorkers, Duration: o.Warmup}); err != nil {
		return Result{}, err
	}
	return Run(ctx, t, Options{Workers: kneeWorkers, Duration: o.Round, Processes: procs})
}

// coresUsed lists the cores the machine and each watched process kept busy during r, busiest
// first, and the rest (Postgres, Redis, stripe-mock) last.
func coresUsed(r Result) string {
	cores := func(d time.Duration) float64 { return d.Seconds() / r.Elapsed.Seconds() }
	procs := maps.Clone(r.CPU)
	delete(procs, machine)
	names := slices.SortedFunc(maps.Keys(procs), func(a, b string) int { return cmp.Compare(procs[b], procs[a]) })
	var b strings.Builder
	fmt.Fprintf(&b, " %.2f of %d:", cores(r.CPU[machine]), runtime.NumCPU())
	rest := r.CPU[machine]
	for _, name := range names {
		fmt.Fprintf(&b, " %s %.2f", name, cores(procs[name]))
		rest -= procs[name]
	}
	fmt.Fprintf(&b, ", the rest %.2f", cores(max(0, rest)))
	return b.String()
}

// runTogether runs each target open loop at its rate for d, all at once; the first one's
// result holds the CPU time procs spent meanwhile.
func runTogether(ctx context.Context, targets []Target, rates []int, d time.Duration, procs map[string]int) ([]Result, error) {
	results := make([]Result, len(targets))
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Go(func() {
			o := Options{Rate: rates[i], Workers: overloadWorkers, Duration: d, Timeout: overloadTimeout}
			if i == 0 {
				o.Processes = procs
			}
			results[i], errs[i] = Run(ctx, t, o)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// overloadCreates are registration creates through the gateway, round the bench event's
// categories.
func overloadCreates(ctx context.Context, s *stack.Stack, d *stack.Demo) (Target, error) {
	ev, err := s.ImportEventDoc(ctx, d.OrganizerID, benchEventDoc())
	if err != nil {
		return Target{}, err
	}
	var n atomic.Uint64
	c := creates{eventID: ev.ID, n: &n, category: func(i uint64) string { return ev.Category(fmt.Sprintf("c%03d", i%benchCategories)) }}
	return Target{Name: "registration creates", Method: "POST", URL: s.GatewayURL() + "/external/v1/organizer/registrations",
		Status: 201, NextBody: c.next, Headers: map[string]string{"Authorization": "Bearer " + d.SecretAll.Key}}, nil
}

// publicSearches are browser event searches through the gateway, each with a body of its own
// (a page further on), so the edge cache keeps none and every one reaches the catalog.
func publicSearches(s *stack.Stack, d *stack.Demo) Target {
	var n atomic.Uint64
	return Target{Name: "event searches", Method: "POST", URL: s.GatewayURL() + "/external/v1/browser/events/search", Status: 201,
		Headers: map[string]string{"x-publishable-key": d.Publishable.Key, "Origin": stack.DemoOrigin},
		NextBody: func() []byte {
			return fmt.Appendf(nil, `{"search":"throwdown","limit":10,"offset":%d}`, n.Add(1)%1_000_000)
		}}
}
