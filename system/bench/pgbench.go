package bench

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/system/stack"
)

// pgbenchCreate is one transaction of combined registration creates (pgbench/create.sql), in
// a pipeline (pgbench -M prepared, as the service prepares its statements); pgbenchRows makes
// the rows it inserts first (pgbench/create_rows.sql).
var (
	//go:embed pgbench/create.sql
	pgbenchCreate []byte
	//go:embed pgbench/create_rows.sql
	pgbenchRows []byte
)

var (
	tpsLine = regexp.MustCompile(`tps = ([0-9.]+)`)
	txLine  = regexp.MustCompile(`number of transactions actually processed: ([0-9]+)`)
)

// ceiling is what pgbench measured: creates per second and the CPU time its database backends
// spent per create.
type ceiling struct {
	rate float64
	cpu  time.Duration
}

// pgbenchCeiling runs the create statements straight against registration's database with
// pgbench, batch creates per transaction from clients at once for d, and returns the creates
// per second the database sustained and its CPU per create.
func pgbenchCeiling(ctx context.Context, s *stack.Stack, categories, batch, clients int, d time.Duration) (ceiling, error) {
	bin, err := exec.LookPath("pgbench")
	if err != nil {
		return ceiling{}, errors.New("bench: pgbench is not installed (it comes with PostgreSQL)")
	}
	if err := broker.EnsureTopics(ctx, broker.Cluster{Brokers: s.KafkaBrokers}, 3, 1, "bench.pgbench.v1"); err != nil {
		return ceiling{}, err
	}
	dbURL := s.DatabaseURL("registration")
	vars := []string{"-D", "batch=" + strconv.Itoa(batch), "-D", "categories=" + strconv.Itoa(categories)}
	if _, err := runPgbench(ctx, bin, pgbenchRows, nil, slices.Concat(vars, []string{"-t", "1", dbURL})...); err != nil {
		return ceiling{}, err
	}
	services := databaseProcesses(dbURL)
	done := make(chan struct{})
	cpu := watchBackends(ctx, dbURL, services, done)
	out, err := runPgbench(ctx, bin, pgbenchCreate, done, slices.Concat(vars, []string{"-M", "prepared",
		"-c", strconv.Itoa(clients), "-j", "2", "-T", strconv.Itoa(max(1, int(d.Seconds()))), dbURL})...)
	if err != nil {
		return ceiling{}, err
	}
	tps, err1 := match(tpsLine, out)
	txs, err2 := match(txLine, out)
	if err := errors.Join(err1, err2); err != nil {
		return ceiling{}, fmt.Errorf("bench: pgbench printed no result: %w: %s", err, out)
	}
	creates := txs * float64(batch)
	return ceiling{rate: tps * float64(batch), cpu: time.Duration(float64(<-cpu) / max(creates, 1))}, nil
}

// watchBackends follows the CPU time of the backends of dbURL's database but those of skip
// (pgbench's own, then) until done is closed, reading them often since each goes with its
// connection, and then sends their total.
func watchBackends(ctx context.Context, dbURL string, skip map[string]int, done <-chan struct{}) <-chan time.Duration {
	total := make(chan time.Duration, 1)
	go func() {
		last := map[string]time.Duration{}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for sampling := true; sampling; {
			for name, pid := range databaseProcesses(dbURL) {
				if _, ok := skip[name]; ok {
					continue
				}
				if t, err := cpuTimes(map[string]int{name: pid}); err == nil {
					last[name] = t[name]
				}
			}
			select {
			case <-tick.C:
			case <-done:
				sampling = false
			case <-ctx.Done():
				sampling = false
			}
		}
		var sum time.Duration
		for _, t := range last {
			sum += t
		}
		total <- sum
	}()
	return total
}

func match(re *regexp.Regexp, out []byte) (float64, error) {
	m := re.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no %s", re)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// runPgbench runs pgbench -n on script with args and returns its output; done, if set, is
// closed once it exited.
func runPgbench(ctx context.Context, bin string, script []byte, done chan<- struct{}, args ...string) ([]byte, error) {
	if done != nil {
		defer close(done)
	}
	f, err := os.CreateTemp("", "podium-pgbench-*.sql")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(script); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, bin, append([]string{"-n", "-f", f.Name()}, args...)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("bench: pgbench: %w: %s", err, out)
	}
	return out, nil
}
