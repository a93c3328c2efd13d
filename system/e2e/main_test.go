// Package e2e tests the system as a client would: the real binaries are built and started, and
// every request goes over HTTP through the gateway.
package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

var (
	sys    *stack.Stack
	demo   *stack.Demo
	otlp   *otlpReceiver
	binDir string
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var err error
	binDir, err = stack.BuildTemp(ctx, "podium-e2e-bin")
	if binDir != "" {
		defer os.RemoveAll(binDir)
	}
	if err != nil {
		return fail(err)
	}
	var stopOTLP func()
	if otlp, stopOTLP, err = startOTLPReceiver(); err != nil {
		return fail(err)
	}
	defer stopOTLP()
	logs, err := os.Create(filepath.Join(os.TempDir(), "podium-e2e-services.log"))
	if err != nil {
		return fail(err)
	}
	defer logs.Close()
	sys, err = stack.Start(ctx, stack.Options{
		BinDir:        binDir,
		PostgresURL:   testkit.PostgresAdminURL(),
		OwnRedis:      true,
		StripeMock:    true,
		RecordStripe:  true,
		ExtraGateways: 1,
		OTLPEndpoint:  otlp.url,
		LogLevel:      "debug",
		Output:        logs,
		Env: map[string][]string{"gateway": {
			"TRUSTED_PROXIES=127.0.0.1/32",
			fmt.Sprintf("RATE_LIMIT_PER_KEY=%d/s", perKeyLimit),
			fmt.Sprintf("RATE_LIMIT_CHECKOUT_SESSION_PER_KEY=%d/m", checkoutPerKeyLimit),
			fmt.Sprintf("RATE_LIMIT_CHECKOUT_SESSION_PER_IP=%d/m", checkoutPerIPLimit),
		}, "registration": {
			fmt.Sprintf("HOLD_MAX_PLACES_PER_ADDRESS=%d", holdCapPerAddress),
		}, "checkout": {
			"RECONCILE_INTERVAL=1s",
		}},
	})
	if err != nil {
		return fail(fmt.Errorf("%w (service logs: %s)", err, logs.Name()))
	}
	defer func() {
		if err := sys.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: stop:", err)
		}
	}()
	if demo, err = sys.SeedDemo(ctx); err != nil {
		return fail(err)
	}
	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "service logs: %s\n", logs.Name())
	}
	return code
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "e2e:", err)
	return 1
}
