// Package e2e tests the system as a client would: the real binaries are built and started, and
// every request goes over HTTP through the gateway.
package e2e

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
	sys  *stack.Stack
	demo *stack.Demo
	otlp *otlpReceiver
)

// Limits the suite's gateways run with, small enough to reach in a test.
const (
	perKeyLimit         = 20 // per second, every route
	checkoutPerKeyLimit = 5  // per minute
	checkoutPerIPLimit  = 3  // per minute
	// holdCapPerAddress is registration's cap on unpaid places per address and event: two full
	// purchases, so that an address reaches it within its session limit.
	holdCapPerAddress = 22
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	var stopOTLP func()
	var err error
	if otlp, stopOTLP, err = startOTLPReceiver(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer stopOTLP()
	return suite.Suite{
		Name:    "e2e",
		Timeout: 10 * time.Minute,
		Options: stack.Options{
			OwnRedis:      true,
			StripeMock:    true,
			RecordStripe:  true,
			ExtraGateways: 1,
			OTLPEndpoint:  otlp.url,
			LogLevel:      "debug",
			Env: map[string][]string{"gateway": {
				"TRUSTED_PROXIES=127.0.0.1/32",
				fmt.Sprintf("RATE_LIMIT_PER_KEY=%d/s", perKeyLimit),
				fmt.Sprintf("RATE_LIMIT_CHECKOUT_SESSION_PER_KEY=%d/m", checkoutPerKeyLimit),
				fmt.Sprintf("RATE_LIMIT_CHECKOUT_SESSION_PER_IP=%d/m", checkoutPerIPLimit),
				fmt.Sprintf("RATE_LIMIT_TEST_PER_KEY=%d/s", perKeyLimit),
				"RATE_LIMIT_TEST_BROWSER_PER_IP=20/s",
				"RATE_LIMIT_TEST_RECEIPTS_PER_IP=10/m",
			}, "registration": {
				fmt.Sprintf("HOLD_MAX_PLACES_PER_ADDRESS=%d", holdCapPerAddress),
			}, "checkout": {
				"RECONCILE_INTERVAL=1s",
			}},
		},
		Ready: func(ctx context.Context, s *stack.Stack) error {
			sys = s
			var err error
			demo, err = s.SeedDemo(ctx)
			return err
		},
	}.Run(m)
}
