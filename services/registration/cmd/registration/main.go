// Command registration is the registration service: `registration serve` runs the HTTP API
// (organizer registrations, browser receipts, the internal hold API), the outbox relay, the
// payments consumer, the hold sweeper and the mail worker; `registration migrate` applies the
// database migrations; `registration dead-letters list|replay` shows and replays the messages
// the payments consumer could never handle.
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
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/migrations"
)

var usage = `Usage:
  registration [serve]   run the HTTP API, the outbox relay, the payments consumer, the hold
                         sweeper and the mail worker (the default)
  registration migrate   apply the database migrations and exit
` + broker.DeadLettersUsage("registration")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "registration:", err)
	if errors.Is(err, broker.ErrUsage) {
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
	case "serve", "migrate":
		cfg, err := config.Load[Config]()
		if err != nil {
			return err
		}
		log := logging.New("registration", cfg.LogLevel)
		if cmd == "migrate" {
			return postgres.Migrate(ctx, cfg.DatabaseURL, log, migrations.Set(), outbox.Migrations())
		}
		return serve(ctx, cfg, log)
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
	return fmt.Errorf("%w: unknown command %q", broker.ErrUsage, cmd)
}
