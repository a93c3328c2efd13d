// Command bench starts the whole system and measures it (`make bench`): each scenario compares
// a path with its baseline in the same run and prints the figures and whether targets are met.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/podiumhq/podium/system/bench"
	"github.com/podiumhq/podium/system/stack"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	binDir := flag.String("bin", "bin", "directory holding the service binaries (make build)")
	rate := flag.Int("rate", 1000, "requests per second of the latency scenarios")
	round := flag.Duration("round", 5*time.Second, "length of one measured round")
	rounds := flag.Int("rounds", 3, "rounds per target, alternating with its baseline")
	logs := flag.String("logs", os.TempDir()+"/podium-bench-services.log", "file receiving the services' logs")
	only := flag.String("only", "", "comma-separated scenarios to run (default all): "+strings.Join(order, ", "))
	reportPath := flag.String("report", "bin/bench/report.md", "file receiving the report: the machine, then each scenario's figures and baselines")
	flag.Parse()
	chosen, err := choose(*only)
	if err != nil {
		return err
	}

	logFile, err := os.Create(*logs)
	if err != nil {
		return err
	}
	defer logFile.Close()
	s, err := stack.Start(ctx, stack.Options{
		BinDir:      *binDir,
		PostgresURL: env("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"),
		RedisURL:    env("REDIS_URL", "redis://127.0.0.1:6379/0"),
		StripeMock:  true,
		LogLevel:    "warn",
		Output:      logFile,
		// Limits stay on (their Redis work is part of the cost measured) but high enough that
		// every request is served: the load comes from one address and one key per surface.
		// The checkout scenario buys from one address with one e-mail, so registration's caps
		// on unpaid places are off too.
		Env: map[string][]string{"gateway": {
			"RATE_LIMIT_PER_KEY=1000000/s", "RATE_LIMIT_BROWSER_PER_KEY=1000000/s", "RATE_LIMIT_BROWSER_PER_IP=1000000/s",
			"RATE_LIMIT_CHECKOUT_SESSION_PER_KEY=1000000/s", "RATE_LIMIT_CHECKOUT_SESSION_PER_IP=1000000/s",
		}, "registration": {"HOLD_MAX_PLACES_PER_ADDRESS=0", "HOLD_MAX_PLACES_PER_EMAIL=0"},
			// The webhooks service's own pool (its delivery workers and 8) would take the
			// stack past Postgres's 100 connections beside the other services' pools; its
			// workers wait for a connection instead.
			"webhooks": {"DB_MAX_CONNS=24"}},
	})
	if err != nil {
		return fmt.Errorf("%w (service logs: %s)", err, *logs)
	}
	defer func() {
		if err := s.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
	}()
	demo, err := s.SeedDemo(ctx)
	if err != nil {
		return err
	}
	o := bench.RunOptions{Rate: *rate, Workers: 16, Round: *round, Rounds: *rounds, Warmup: 2 * time.Second}
	rep := report{started: time.Now(), load: loadAverage(), shape: fmt.Sprintf("%d rounds of %v per path, 2 cores shared by the load generator, the services, Postgres and Redis", o.Rounds, o.Round)}
	fmt.Printf("podium bench: %s\n", rep.shape)
	err = runScenarios(ctx, chosen, s, demo, o, &rep)
	if werr := rep.write(context.WithoutCancel(ctx), *reportPath); werr != nil {
		return errors.Join(err, werr)
	}
	fmt.Printf("\nreport: %s\n", *reportPath)
	return err
}

// runScenarios runs the chosen scenarios in turn, each once the services are idle, printing
// their figures and adding them to rep, until one fails.
func runScenarios(ctx context.Context, chosen []string, s *stack.Stack, demo *stack.Demo, o bench.RunOptions, rep *report) error {
	for _, name := range chosen {
		var text bytes.Buffer
		out := io.MultiWriter(os.Stdout, &text)
		err := bench.Settle(ctx, s, out)
		if err == nil {
			err = scenarios[name](ctx, s, demo, o, out)
		}
		rep.add(name, text.Bytes(), err)
		if err != nil {
			return err
		}
	}
	return nil
}

// scenarios are what make bench measures, by name.
var scenarios = map[string]func(context.Context, *stack.Stack, *stack.Demo, bench.RunOptions, io.Writer) error{
	"gateway": bench.GatewayOverhead, "catalog": bench.CatalogReads, "registrations": bench.Registrations, "checkout": bench.Checkout,
	"hostile": bench.HostileBodies, "outbox": bench.OutboxLatency, "webhooks": bench.WebhookFanout, "overload": bench.Overload,
}

// order is the order scenarios run in.
var order = []string{"gateway", "catalog", "registrations", "checkout", "hostile", "outbox", "webhooks", "overload"}

// choose returns the scenarios named in only (all when empty), in order.
func choose(only string) ([]string, error) {
	if only == "" {
		return order, nil
	}
	names := strings.Split(only, ",")
	for _, n := range names {
		if scenarios[n] == nil {
			return nil, fmt.Errorf("unknown scenario %q (known: %s)", n, strings.Join(order, ", "))
		}
	}
	return slices.DeleteFunc(slices.Clone(order), func(n string) bool { return !slices.Contains(names, n) }), nil
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
