// Command checkout is the checkout service: `checkout serve` runs the HTTP API (browser
// summary and session, Stripe webhook), the outbox relay, the order-events consumer, the
// refund worker, the sweeper and the reconciler; `checkout migrate` applies the database
// migrations; `checkout dead-letters list|replay` shows and replays the order events its
// consumer could never handle; `checkout refunds list|retry` shows the refunds that failed for
// good and hands them back to the refund workers.
package main

import (
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/events"
	"github.com/podiumhq/podium/services/checkout/internal/cli"
	"github.com/podiumhq/podium/services/checkout/migrations"
)

var usage = `Usage:
  checkout [serve]   run the HTTP API, the outbox relay, the order-events consumer, the refund
                     worker, the sweeper and the reconciler
  checkout migrate   apply the database migrations and exit
` + broker.DeadLettersUsage("checkout") + cli.Usage

// program is the binary: its commands, "serve" when none is named.
var program = service.Program{
	Name:  "checkout",
	Usage: usage,
	Commands: map[string]service.Command{
		"serve":        service.Serve("checkout", serve),
		"migrate":      service.Migrate[Config]("checkout", migrations.Set(), outbox.Migrations()),
		"dead-letters": service.DeadLetters(events.DeadLetters),
		"refunds":      refunds,
	},
}

func main() { program.Main() }
