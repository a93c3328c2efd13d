// Command webhooks is the webhooks service: `webhooks serve` runs the endpoints API, the
// consumer of the producers' events, the dispatcher, the notifier of disabled endpoints and
// the retention sweeper; `webhooks migrate` applies the database migrations; `webhooks
// dead-letters list|replay` shows and replays the events its consumer could never store.
package main

import (
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
	"github.com/podiumhq/podium/services/webhooks/migrations"
)

var usage = `Usage:
  webhooks [serve]   run the endpoints API, the events consumer, the dispatcher, the notifier
                     of disabled endpoints and the retention sweeper
  webhooks migrate   apply the database migrations and exit
` + broker.DeadLettersUsage("webhooks")

// program is the binary: its commands, "serve" when none is named.
var program = service.Program{
	Name:  "webhooks",
	Usage: usage,
	Commands: map[string]service.Command{
		"serve":        service.Serve("webhooks", serve),
		"migrate":      service.Migrate[Config]("webhooks", migrations.Set(), outbox.Migrations()),
		"dead-letters": service.DeadLetters(events.DeadLetters),
	},
}

func main() { program.Main() }
