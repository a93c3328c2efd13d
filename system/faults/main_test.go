// Package faults breaks the running system on purpose and checks that nothing paid is lost or
// applied twice: the whole system runs as processes (system/stack) with two instances of every
// service and a fault proxy between the services and Postgres, Redis, the Kafka-protocol broker
// and each other, and each scenario takes one of them down under steady load through the
// gateways, then counts what was sent, confirmed, lost and doubled and the 5xx answers seen.
// Scenarios run one after the other on one stack.
package faults

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
	"github.com/podiumhq/podium/system/stack/suite"
)

var sys *stack.Stack

// owners are the services that run twice behind their fronts.
var owners = []string{"auth", "catalog", "registration", "checkout", "webhooks"}

// receiptsPerIP is the gateway's receipt lookup limit per client address, which the Redis
// scenario reaches to show that limits hold while Redis is down.
const receiptsPerIP = 5

func TestMain(m *testing.M) {
	os.Exit(suite.Suite{
		Name:    "faults",
		Timeout: 5 * time.Minute,
		Options: options(),
		Ready: func(ctx context.Context, s *stack.Stack) error {
			sys = s
			for _, svc := range owners {
				if _, err := s.AddInstance(ctx, svc); err != nil {
					return err
				}
			}
			return nil
		},
	}.Run(m))
}

// options starts two gateways with limits the load stays under (every worker is a client
// address of its own), but for receipt lookups, and without registration's caps on unpaid
// places per address and e-mail, which a load from a few addresses would reach. Checkout
// retries a refund Stripe failed for now within 5 s once Stripe answers again, so a row waits
// for its fault, not for the backoff.
func options() stack.Options {
	return stack.Options{
		OwnRedis:      true,
		StripeMock:    true,
		RecordStripe:  true,
		Faults:        true,
		ExtraGateways: 1,
		Env: map[string][]string{
			"gateway": {
				"TRUSTED_PROXIES=127.0.0.1/32",
				"RATE_LIMIT_PER_KEY=5000/s", "RATE_LIMIT_BROWSER_PER_KEY=5000/s", "RATE_LIMIT_BROWSER_PER_IP=1000/s",
				"RATE_LIMIT_CHECKOUT_SESSION_PER_KEY=100000/m", "RATE_LIMIT_CHECKOUT_SESSION_PER_IP=10000/m",
				"RATE_LIMIT_WEBHOOK_PER_IP=5000/s", fmt.Sprintf("RATE_LIMIT_RECEIPTS_PER_IP=%d/m", receiptsPerIP),
			},
			// Ten instances share the machine's Postgres: small pools keep them within its
			// connection limit.
			"auth":         {"DB_MAX_CONNS=6"},
			"catalog":      {"DB_MAX_CONNS=6"},
			"checkout":     {"DB_MAX_CONNS=10", "REFUND_RETRY_MAX=5s"},
			"registration": {"HOLD_MAX_PLACES_PER_ADDRESS=0", "HOLD_MAX_PLACES_PER_EMAIL=0", "DB_MAX_CONNS=10"},
			"webhooks":     {"DB_MAX_CONNS=8", "DELIVERY_WORKERS=32"},
		},
	}
}
