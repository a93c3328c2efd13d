// Package browser tests the demo organizer website (examples/website) in a real browser:
// headless Chromium driven through the DevTools protocol (chromedp) against the whole system
// started as processes, the local stand-in of Stripe's hosted checkout included.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

var (
	sys  *stack.Stack
	demo *stack.Demo
	// chromium is the browser's path; empty when it is not installed (tests skip, but in CI).
	chromium string
	// root is the repository's root directory.
	root string
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	chromium, _ = exec.LookPath("chromium")
	if chromium == "" {
		if os.Getenv("CI") != "" {
			return fail(fmt.Errorf("chromium is not installed (make chromium installs it)"))
		}
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var err error
	if root, err = stack.RepoRoot("."); err != nil {
		return fail(err)
	}
	binDir, err := stack.BuildTemp(ctx, "podium-browser-bin")
	if binDir != "" {
		defer os.RemoveAll(binDir)
	}
	if err != nil {
		return fail(err)
	}
	logs, err := os.Create(filepath.Join(os.TempDir(), "podium-browser-services.log"))
	if err != nil {
		return fail(err)
	}
	defer logs.Close()
	sys, err = stack.Start(ctx, stack.Options{
		BinDir:         binDir,
		PostgresURL:    testkit.PostgresAdminURL(),
		OwnRedis:       true,
		StripeMock:     true,
		HostedCheckout: true,
		Output:         logs,
	})
	if err != nil {
		return fail(fmt.Errorf("%w (service logs: %s)", err, logs.Name()))
	}
	defer func() {
		if err := sys.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "browser: stop:", err)
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
	fmt.Fprintln(os.Stderr, "browser:", err)
	return 1
}
