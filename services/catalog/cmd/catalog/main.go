// Command catalog is the catalog service: `catalog serve` runs the HTTP APIs, the outbox relay
// and the consumers, `catalog migrate` applies the database migrations, `catalog import` and
// `catalog events list` are the operator commands, an HTTP client of the admin API, and
// `catalog dead-letters list|replay` shows and replays the messages its consumers could never
// handle.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
	_ "time/tzdata" // event time zones must resolve on images without a tz database

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/cli"
	"github.com/podiumhq/podium/services/catalog/migrations"
)

var usage = `Usage:
  catalog [serve]   run the HTTP APIs, the outbox relay and the consumers (the default)
  catalog migrate   apply the database migrations and exit

` + cli.Usage + broker.DeadLettersUsage("catalog")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err == nil {
		return
	}
	if errors.Is(err, cli.ErrUsage) || errors.Is(err, broker.ErrUsage) {
		fmt.Fprintf(os.Stderr, "catalog: %v\n\n%s", err, usage)
		os.Exit(2)
	}
	cli.PrintError(os.Stderr, err)
	os.Exit(1)
}

// run dispatches to the subcommand named by args[0].
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "serve":
		cfg, err := config.Load[Config]()
		if err != nil {
			return err
		}
		return serve(ctx, cfg, logging.New("catalog", cfg.LogLevel))
	case "migrate":
		cfg, err := config.Load[Config]()
		if err != nil {
			return err
		}
		return postgres.Migrate(ctx, cfg.DatabaseURL, logging.New("catalog", cfg.LogLevel), migrations.Set(), outbox.Migrations())
	case "import", "events":
		cfg, err := config.Load[CLIConfig]()
		if err != nil {
			return err
		}
		return cli.Run(ctx, cli.NewClient(cfg.AdminURL, cfg.OperatorToken, 30*time.Second), args, stdout)
	case "dead-letters":
		cfg, err := config.Load[config.Kafka]()
		if err != nil {
			return err
		}
		return broker.RunDeadLetters(ctx, events.DeadLetters(cfg.KafkaBrokers), args[1:], stdout)
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return fmt.Errorf("%w: unknown command %q", cli.ErrUsage, cmd)
}
