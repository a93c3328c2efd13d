// Package clients runs the official clients (clients/go, clients/typescript) against the whole
// system in test mode: each buys a registration as docs/integration.md tells integrators to,
// with test keys of the demo organizer, from the search to the verified order.completed webhook.
package clients

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
	"github.com/podiumhq/podium/system/stack/suite"
)

var (
	sys *stack.Stack
	// secret and publishable are the demo organizer's test keys: every scope, and the demo
	// website's origin.
	secret, publishable stack.Key
	// event is the demo organizer's event the clients buy places of.
	event stack.Event
	// root is the repository's root directory.
	root string
)

func TestMain(m *testing.M) {
	os.Exit(suite.Suite{
		Name:    "clients",
		Timeout: 10 * time.Minute,
		// Test keys have lower limits than live ones (services/gateway/README.md): one checkout
		// session a minute per address would let only one of the clients buy.
		Options: stack.Options{OwnRedis: true, StripeMock: true, Env: map[string][]string{"gateway": {
			"RATE_LIMIT_TEST_PER_KEY=50/s",
			"RATE_LIMIT_TEST_BROWSER_PER_IP=20/s",
			"RATE_LIMIT_TEST_CHECKOUT_SESSION_PER_IP=10/m",
		}}},
		Ready: func(ctx context.Context, s *stack.Stack) error {
			sys = s
			var err error
			if root, err = stack.RepoRoot("."); err != nil {
				return err
			}
			demo, err := s.SeedDemo(ctx)
			if err != nil {
				return err
			}
			if secret, err = s.CreateKey(ctx, demo.OrganizerID, stack.KeySpec{
				Type: "secret", Mode: "test", Name: "clients test backend", Scopes: stack.AllScopes,
			}); err != nil {
				return err
			}
			if publishable, err = s.CreateKey(ctx, demo.OrganizerID, stack.KeySpec{
				Type: "publishable", Mode: "test", Name: "clients test website", Origins: []string{stack.DemoOrigin},
			}); err != nil {
				return err
			}
			if event, err = s.ImportEventDoc(ctx, demo.OrganizerID, shopEvent); err != nil {
				return fmt.Errorf("import the clients' event: %w", err)
			}
			return nil
		},
	}.Run(m))
}

// shopEvent is the import document of the event the clients buy: a category of pairs, a
// required T-shirt size per athlete and a waiver, as the demo events have.
var shopEvent = map[string]any{
	"externalId": "clients-shop", "name": "Clients Throwdown", "status": "PUBLISHED",
	"startDate": "2027-06-12", "endDate": "2027-06-13", "timezone": "Europe/Madrid", "currency": "EUR",
	"categories": []any{map[string]any{"key": "pairs", "name": "Pairs", "teamSize": map[string]any{"min": 2, "max": 2}, "basePrice": 9000}},
	"formFields": []any{map[string]any{"key": "tshirt", "label": "T-shirt size", "type": "select", "required": true,
		"options": []any{"S", "M", "L"}, "appliesTo": "ATHLETE"}},
	"waivers": []any{map[string]any{"key": "liability", "title": "Liability", "text": "I take part at my own risk."}},
}
