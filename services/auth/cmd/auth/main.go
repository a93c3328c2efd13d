// Command auth is the auth service: `auth serve` runs the HTTP API and the outbox relay,
// `auth migrate` applies the database migrations, and `auth organizer ...`, `auth key ...` and
// `auth member ...` are the operator commands, an HTTP client of the admin API.
package main

import (
	"context"
	"io"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/cli"
	"github.com/podiumhq/podium/services/auth/migrations"
)

const usage = `Usage:
  auth [serve]   run the HTTP API and the outbox relay (the default)
  auth migrate   apply the database migrations and exit

` + cli.Usage

// program is the binary: its commands, "serve" when none is named.
var program = service.Program{
	Name:  "auth",
	Usage: usage,
	Commands: map[string]service.Command{
		"serve":     service.Serve("auth", serve),
		"migrate":   service.Migrate[Config]("auth", migrations.Set(), outbox.Migrations()),
		"organizer": operator("organizer"),
		"key":       operator("key"),
		"member":    operator("member"),
	},
	Explain: cli.Explain,
}

func main() { program.Main() }

// operator is the operator command named resource: an HTTP client of the admin API.
func operator(resource string) service.Command {
	return func(ctx context.Context, args []string, stdout io.Writer) error {
		cfg, err := config.Load[CLIConfig]()
		if err != nil {
			return err
		}
		return cli.Run(ctx, cli.NewClient(cfg.AdminURL, cfg.OperatorToken, 30*time.Second), append([]string{resource}, args...), stdout)
	}
}
