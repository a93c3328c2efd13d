// Command registration is the registration service: `registration serve` runs the HTTP API
// (organizer registrations, browser receipts, the internal hold API), the outbox relay, the
// payments consumer, the hold sweeper and the mail worker; `registration migrate` applies the
// database migrations.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/migrations"
)

const usage = `Usage:
  registration [serve]   run the HTTP API, the outbox relay, the payments consumer, the hold
                         sweeper and the mail worker (the default)
  registration migrate   apply the database migrations and exit
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "registration:", err)
		os.Exit(1)
	}
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
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return fmt.Errorf("unknown command %q\n\n%s", cmd, usage)
}
