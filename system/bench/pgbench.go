package bench

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/system/stack"
)

// pgbenchCreate is one transaction of combined registration creates (pgbench/create.sql).
//
//go:embed pgbench/create.sql
var pgbenchCreate []byte

// pgbenchBatch is the creates per pgbench transaction: about what the service's combiner puts
// in one transaction under the scenario's load.
const pgbenchBatch = 16

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+)`)

// pgbenchCeiling runs the create statements straight against registration's database with
// pgbench, clients at once for d, and returns the creates per second the database sustained.
func pgbenchCeiling(ctx context.Context, s *stack.Stack, categories, clients int, d time.Duration) (float64, error) {
	bin, err := exec.LookPath("pgbench")
	if err != nil {
		return 0, errors.New("bench: pgbench is not installed (it comes with PostgreSQL)")
	}
	if err := broker.EnsureTopics(ctx, s.KafkaBrokers, 3, 1, "bench.pgbench.v1"); err != nil {
		return 0, err
	}
	script, err := os.CreateTemp("", "podium-pgbench-*.sql")
	if err != nil {
		return 0, err
	}
	defer os.Remove(script.Name())
	if _, err := script.Write(pgbenchCreate); err != nil {
		return 0, err
	}
	if err := script.Close(); err != nil {
		return 0, err
	}
	out, err := exec.CommandContext(ctx, bin, "-n", "-f", script.Name(),
		"-D", "batch="+strconv.Itoa(pgbenchBatch), "-D", "categories="+strconv.Itoa(categories),
		"-c", strconv.Itoa(clients), "-j", "2", "-T", strconv.Itoa(max(1, int(d.Seconds()))),
		s.DatabaseURL("registration")).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("bench: pgbench: %w: %s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("bench: pgbench printed no tps: %s", out)
	}
	tps, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		return 0, err
	}
	return tps * pgbenchBatch, nil
}
