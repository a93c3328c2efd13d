// Command auth is the auth service: `auth serve` runs the HTTP API and the outbox relay,
// `auth migrate` applies the database migrations, and `auth organizer ...`, `auth key ...`,
// `auth member ...` and `auth audit ...` are the operator commands, an HTTP client of the
// admin API.
package main

import (
	"github.com/podiumhq/podium/libs/admin"
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
		"audit":     operator("audit"),
	},
	Explain: admin.Explain,
}

func main() { program.Main() }

// operator is the operator command named resource: an HTTP client of the admin API.
var operator = admin.Operator("auth", "http://127.0.0.1:8081", cli.Commands)
