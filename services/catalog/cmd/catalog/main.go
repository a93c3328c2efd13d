// Command catalog is the catalog service: `catalog serve` runs the HTTP APIs, the outbox relay
// and the consumers, `catalog migrate` applies the database migrations, `catalog import` and
// `catalog events list` are the operator commands, an HTTP client of the admin API, and
// `catalog dead-letters list|replay` shows and replays the messages its consumers could never
// handle.
package main

import (
	_ "time/tzdata" // event time zones must resolve on images without a tz database

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/cli"
	"github.com/podiumhq/podium/services/catalog/migrations"
)

var usage = `Usage:
  catalog [serve]   run the HTTP APIs, the outbox relay and the consumers (the default)
  catalog migrate   apply the database migrations and exit

` + cli.Usage + broker.DeadLettersUsage("catalog")

// program is the binary: its commands, "serve" when none is named.
var program = service.Program{
	Name:  "catalog",
	Usage: usage,
	Commands: map[string]service.Command{
		"serve":        service.Serve("catalog", serve),
		"migrate":      service.Migrate[Config]("catalog", migrations.Set(), outbox.Migrations()),
		"import":       operator("import"),
		"events":       operator("events"),
		"dead-letters": service.DeadLetters(events.DeadLetters),
	},
	Explain: admin.Explain,
}

func main() { program.Main() }

// operator is the operator command named resource: an HTTP client of the admin API.
var operator = admin.Operator("catalog", "http://127.0.0.1:8082", cli.Commands)
