package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/system/stack"
)

// Shape and targets of the registration scenario.
const (
	// createWorkers is how many clients create at once (an opening rush of sign-ups).
	createWorkers = 64
	// seedTickets is how many tickets the search runs over.
	seedTickets = 100_000
	// searchRate is the searches per second whose latency is measured, a busy back office;
	// searchWorkers also measure the most searches per second the machine serves.
	searchRate    = 25
	searchWorkers = 8

	hotTarget       = 2000 // creates per second into one category, through the gateway
	spreadTarget    = 4000 // creates per second round the categories, through the gateway
	searchTargetP99 = 50 * time.Millisecond
)

// Registrations measures creates per second into one hot category and spread over many
// categories, each beside the database's own ceiling for the same statements (pgbench),
// then counts the places taken from the database (no category past its quota); then
// sold-out rushes, creates racing for the last places of categories; then a filtered search
// over an event filled with 100,000 tickets by the same creates; every path through the
// gateway and straight to the registration service.
func Registrations(ctx context.Context, s *stack.Stack, d *stack.Demo, o RunOptions, out io.Writer) error {
	ev, err := s.ImportEventDoc(ctx, d.OrganizerID, benchEventDoc())
	if err != nil {
		return err
	}
	r := regPaths{s: s, d: d, eventID: ev.ID}
	// The catalog follows every create through the places events, so its CPU is part of the cost.
	procs := map[string]int{"gateway": s.PID("gateway"), "registration": s.PID("registration"), "catalog": s.PID("catalog")}
	var n atomic.Uint64
	hot := creates{eventID: ev.ID, n: &n, category: func(uint64) string { return ev.Category("c000") }}
	spread := creates{eventID: ev.ID, n: &n, category: func(i uint64) string { return ev.Category(fmt.Sprintf("c%03d", i%benchCategories)) }}

	rate, err := r.creates(ctx, o, procs, out, hot, spread)
	if err != nil {
		return err
	}
	if err := r.rushes(ctx, &n, out); err != nil {
		return err
	}
	// The search runs over an event of its own, filled to seedTickets whatever the creates above
	// made, so that its figures compare from run to run.
	sev, err := s.ImportEventDoc(ctx, d.OrganizerID, searchEventDoc())
	if err != nil {
		return err
	}
	r.eventID = sev.ID
	fill := creates{eventID: sev.ID, n: &n, category: func(i uint64) string { return sev.Category(fmt.Sprintf("s%03d", i%benchCategories)) }}
	start := time.Now()
	total, err := r.seed(ctx, fill.next, rate)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %d tickets in the search's event (filled through the gateway in %v), then VACUUM ANALYZE of them as autovacuum would have run\n",
		total, time.Since(start).Round(time.Second))
	if err := s.VacuumAnalyze(ctx, "registration", "tickets", "registrations", "orders"); err != nil {
		return err
	}
	return r.search(ctx, o, procs, total, out)
}

// creates measures creates per second into one category (hot) and over every category
// (spread), their rounds alternating so that both meet tables of the same size, and returns
// the rate of the spread ones through the gateway.
func (r regPaths) creates(ctx context.Context, o RunOptions, procs map[string]int, out io.Writer, hot, spread creates) (float64, error) {
	fmt.Fprintf(out, "\nRegistrations: creates (one athlete each) from %d concurrent clients, %d rounds of %v per path, the paths in turn;\n", createWorkers, o.Rounds, o.Round)
	fmt.Fprintf(out, "  CPU per create of each process, database = the Postgres backends of registration's and the catalog's databases\n")
	kinds := []struct {
		name       string
		target     int
		categories int
	}{{"into one category", hotTarget, 1}, {fmt.Sprintf("over %d categories", benchCategories), spreadTarget, benchCategories}}
	paths := append(r.both("POST", "/organizer/registrations", 201, hot.next), r.both("POST", "/organizer/registrations", 201, spread.next)...)
	watched, err := r.warmed(ctx, paths[0], procs)
	if err != nil {
		return 0, err
	}
	runs, err := alternateFresh(ctx, paths, RunOptions{Workers: createWorkers, Round: o.Round, Rounds: o.Rounds, Warmup: o.Warmup,
		Counters: commitCounters(ctx, r.s.URLs["registration"])}, watched)
	if err != nil {
		return 0, err
	}
	for k, c := range kinds {
		gateway, direct := runs[2*k], runs[2*k+1]
		// The database's ceiling is measured with the transactions of this kind's creates.
		batch := max(1, int((perTransaction(gateway)+perTransaction(direct))/2+0.5))
		fmt.Fprintf(out, "  %s:\n", c.name)
		for i, res := range []Result{gateway, direct} {
			regDB, catalogDB := databaseCPU(res, r.s.DatabaseURL("registration")), databaseCPU(res, r.s.DatabaseURL("catalog"))
			line := fmt.Sprintf("    %-24s %6.0f creates/s   %4.1f per transaction   p50 %8s   p99 %8s   CPU/req registration %6s, catalog %5s, database %6s (registration's %s, the catalog's %s)",
				res.Target, res.Throughput(), perTransaction(res), ms(res.Quantile(0.5)), ms(res.Quantile(0.99)),
				us(res.CPUPerRequest("registration")), us(res.CPUPerRequest("catalog")), us(regDB+catalogDB), us(regDB), us(catalogDB))
			if i == 0 {
				line += fmt.Sprintf(", gateway %5s   (target >= %d/s: %s)", us(res.CPUPerRequest("gateway")), c.target, verdict(res.Throughput() >= float64(c.target)))
			}
			fmt.Fprintln(out, line)
		}
		ceiling, err := pgbenchCeiling(ctx, r.s, c.categories, batch, 8, time.Duration(o.Rounds)*o.Round)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(out, "    %-24s %6.0f creates/s   CPU/req database %6s   (pgbench: the same statements, %d creates per transaction as the service combined these; the gateway's creates reach %.0f%% of it, the direct ones %.0f%%)\n",
			"database ceiling", ceiling.rate, us(ceiling.cpu), batch, 100*gateway.Throughput()/ceiling.rate, 100*direct.Throughput()/ceiling.rate)
	}
	check, err := checkOversell(ctx, r.s.DatabaseURL("registration"), r.eventID)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(out, "  %s\n", check)
	return runs[2].Throughput(), nil
}

// warmed sends t for a second, so that the services have opened the database connections the
// load needs, and returns procs with the Postgres backends of registration's and the
// catalog's databases added, found anew at each call.
func (r regPaths) warmed(ctx context.Context, newTarget func() (Target, error), procs map[string]int) (func() map[string]int, error) {
	t, err := newTarget()
	if err != nil {
		return nil, err
	}
	if _, err := Run(ctx, t, Options{Workers: createWorkers, Duration: time.Second}); err != nil {
		return nil, err
	}
	return func() map[string]int {
		watched := maps.Clone(procs)
		maps.Copy(watched, databaseProcesses(r.s.DatabaseURL("registration"), r.s.DatabaseURL("catalog")))
		return watched
	}, nil
}

// rushes races creates for the last places through the gateway: into one category of
// rushHotQuota places, then round the other categories of the sold-out event, rushQuota
// places each. Exactly the places must be made, the rest refused, and the database must agree.
func (r regPaths) rushes(ctx context.Context, n *atomic.Uint64, out io.Writer) error {
	ev, err := r.s.ImportEventDoc(ctx, r.d.OrganizerID, soldOutEventDoc())
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  sold-out rushes, %d clients through the gateway until the categories are full:\n", createWorkers)
	for _, c := range []struct {
		name     string
		category func(uint64) string
		places   int
	}{
		{fmt.Sprintf("into one category of %d places", rushHotQuota), func(uint64) string { return ev.Category("r000") }, rushHotQuota},
		{fmt.Sprintf("round %d categories of %d places", benchCategories-1, rushQuota), func(i uint64) string {
			return ev.Category(fmt.Sprintf("r%03d", 1+i%(benchCategories-1)))
		}, (benchCategories - 1) * rushQuota},
	} {
		ru := rush{url: r.s.GatewayURL() + "/external/v1/organizer/registrations", key: r.d.SecretAll.Key,
			bodies: creates{eventID: ev.ID, n: n, category: c.category}, workers: createWorkers, attempts: c.places + 20*createWorkers}
		start := time.Now()
		made, refused, err := ru.run(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "    %-36s %5d created, %5d refused (409) in %v; %s\n", c.name, made, refused, time.Since(start).Round(time.Millisecond),
			verdict(made == c.places))
	}
	check, err := checkOversell(ctx, r.s.DatabaseURL("registration"), ev.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "    %s\n", check)
	return nil
}

// search measures the search's latency at searchRate, then the most searches per second
// searchWorkers clients get.
func (r regPaths) search(ctx context.Context, o RunOptions, procs map[string]int, total int, out io.Writer) error {
	paths := r.both("POST", "/organizer/registrations/search", 201, searches(r.eventID))
	fmt.Fprintf(out, "  search over %d tickets: %s\n", total, searchDescription())
	fixed := func() map[string]int { return procs }
	runs, err := alternateFresh(ctx, paths, RunOptions{Rate: searchRate, Workers: searchWorkers, Round: o.Round, Rounds: o.Rounds, Warmup: o.Warmup}, fixed)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "    at %d searches/s:\n", searchRate)
	for i, res := range runs {
		line := fmt.Sprintf("    %-24s p50 %8s   p99 %8s", res.Target, ms(res.Quantile(0.5)), ms(res.Quantile(0.99)))
		if i == 0 {
			line += fmt.Sprintf("   (target p99 < %v: %s)", searchTargetP99, verdict(res.Quantile(0.99) < searchTargetP99))
		}
		fmt.Fprintln(out, line)
	}
	runs, err = alternateFresh(ctx, paths, RunOptions{Workers: searchWorkers, Round: o.Round, Rounds: o.Rounds}, fixed)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "    as fast as %d concurrent clients go:\n", searchWorkers)
	for _, res := range runs {
		fmt.Fprintf(out, "    %-24s %5.0f searches/s   p50 %8s   p99 %8s   registration CPU %6s/req\n", res.Target, res.Throughput(),
			ms(res.Quantile(0.5)), ms(res.Quantile(0.99)), us(res.CPUPerRequest("registration")))
	}
	return nil
}

// regPaths builds the registration targets of the demo organizer's secret key.
type regPaths struct {
	s       *stack.Stack
	d       *stack.Demo
	eventID string
}

// both returns makers of the path through the gateway and straight to the service. The direct
// target is made again for each run: its identity token lives a minute.
func (r regPaths) both(method, path string, status int, body func() []byte) []func() (Target, error) {
	gateway := func() (Target, error) {
		return Target{Name: "through the gateway", Method: method, URL: r.s.GatewayURL() + "/external/v1" + path, Status: status,
			NextBody: body, Headers: map[string]string{"Authorization": "Bearer " + r.d.SecretAll.Key}}, nil
	}
	direct := func() (Target, error) {
		token, err := r.s.IdentityToken(identity.Registration, identity.Principal{
			OrganizerID: r.d.OrganizerID, KeyID: r.d.SecretAll.ID, KeyType: identity.Secret, Scopes: r.d.SecretAll.Scopes,
		})
		return Target{Name: "direct to registration", Method: method, URL: r.s.URLs["registration"] + "/external/v1" + path, Status: status,
			NextBody: body, Headers: map[string]string{identity.Header: token, identity.HeaderClientIP: "127.0.0.1"}}, err
	}
	return []func() (Target, error){gateway, direct}
}

// seed creates registrations over the categories through the gateway until the event holds
// seedTickets tickets, in runs sized by the last rate, and returns how many it holds.
func (r regPaths) seed(ctx context.Context, body func() []byte, rate float64) (int, error) {
	viaGateway := r.both("POST", "/organizer/registrations", 201, body)[0]
	for {
		n, err := r.count(ctx)
		if err != nil || n >= seedTickets {
			return n, err
		}
		t, _ := viaGateway()
		left := float64(seedTickets - n)
		run := time.Duration(left / max(rate, 100) * float64(time.Second))
		res, err := Run(ctx, t, Options{Workers: createWorkers, Duration: max(run, 200*time.Millisecond)})
		if err != nil {
			return 0, err
		}
		rate = res.Throughput()
	}
}

// count returns how many active tickets the event has, from a search's total.
func (r regPaths) count(ctx context.Context) (int, error) {
	search := Target{Method: http.MethodPost, URL: r.s.GatewayURL() + "/external/v1/organizer/registrations/search",
		Headers: map[string]string{"Authorization": "Bearer " + r.d.SecretAll.Key}}
	status, raw, err := send(ctx, search, fmt.Appendf(nil, `{"eventId":%q,"limit":1}`, r.eventID))
	if err != nil {
		return 0, err
	}
	if status != http.StatusCreated {
		return 0, fmt.Errorf("bench: count tickets: status %d", status)
	}
	var page struct {
		Total int `json:"total"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return 0, fmt.Errorf("bench: count tickets: %w", err)
	}
	return page.Total, nil
}
