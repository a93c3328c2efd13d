// Command checkout is the checkout service: `checkout serve` runs the HTTP API (browser
// summary and session, Stripe webhook), the outbox relay, the order-events consumer and the
// sweeper; `checkout migrate` applies the database migrations; `checkout dead-letters
// list|replay` shows and replays the order events its consumer could never handle.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/events"
	"github.com/podiumhq/podium/services/checkout/migrations"
)

var usage = `Usage:
  checkout [serve]   run the HTTP API, the outbox relay, the order-events consumer and the sweeper
  checkout migrate   apply the database migrations and exit
` + broker.DeadLettersUsage("checkout")

// errUsage reports a command line that cannot be understood.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "checkout: %v\n", err)
	if errors.Is(err, errUsage) || errors.Is(err, broker.ErrUsage) {
		fmt.Fprint(os.Stderr, "\n"+usage)
		os.Exit(2)
	}
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
		return serve(ctx, cfg, logging.New("checkout", cfg.LogLevel))
	case "migrate":
		cfg, err := config.Load[Config]()
		if err != nil {
			return err
		}
		return postgres.Migrate(ctx, cfg.DatabaseURL, logging.New("checkout", cfg.LogLevel), migrations.Set(), outbox.Migrations())
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
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}
