// Command registration is the registration service: `registration serve` runs the HTTP API
// (organizer registrations, browser receipts, the internal hold API), the outbox relay, the
// payments consumer, the hold sweeper and the mail worker; `registration migrate` applies the
// database migrations; `registration dead-letters list|replay` shows and replays the messages
// the payments consumer could never handle.
package main

import (
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/migrations"
)

var usage = `Usage:
  registration [serve]   run the HTTP API, the outbox relay, the payments consumer, the hold
                         sweeper and the mail worker (the default)
  registration migrate   apply the database migrations and exit
` + broker.DeadLettersUsage("registration")

// program is the binary: its commands, "serve" when none is named.
var program = service.Program{
	Name:  "registration",
	Usage: usage,
	Commands: map[string]service.Command{
		"serve":        service.Serve("registration", serve),
		"migrate":      service.Migrate[Config]("registration", migrations.Set(), outbox.Migrations()),
		"dead-letters": service.DeadLetters(events.DeadLetters),
	},
}

func main() { program.Main() }
