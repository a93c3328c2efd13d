// Command auth is the auth service: `auth serve` runs the HTTP API and the outbox relay,
// `auth migrate` applies the database migrations, and `auth organizer ...` and `auth key ...`
// are the operator commands, an HTTP client of the admin API.
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

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/auth/internal/cli"
	"github.com/podiumhq/podium/services/auth/migrations"
)

const usage = `Usage:
  auth [serve]   run the HTTP API and the outbox relay (the default)
  auth migrate   apply the database migrations and exit

` + cli.Usage

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err == nil {
		return
	}
	if errors.Is(err, cli.ErrUsage) {
		fmt.Fprintf(os.Stderr, "auth: %v\n\n%s", err, usage)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "auth: %s\n", cli.Explain(err))
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
		return serve(ctx, cfg, logging.New("auth", cfg.LogLevel))
	case "migrate":
		cfg, err := config.Load[Config]()
		if err != nil {
			return err
		}
		return postgres.Migrate(ctx, cfg.DatabaseURL, logging.New("auth", cfg.LogLevel), migrations.Set(), outbox.Migrations())
	case "organizer", "key":
		cfg, err := config.Load[CLIConfig]()
		if err != nil {
			return err
		}
		return cli.Run(ctx, cli.NewClient(cfg.AdminURL, cfg.OperatorToken, 30*time.Second), args, stdout)
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return fmt.Errorf("%w: unknown command %q", cli.ErrUsage, cmd)
}
