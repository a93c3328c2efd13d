// Package browser tests the demo organizer website (examples/website) in a real browser:
// headless Chromium driven through the DevTools protocol (chromedp) against the whole system
// started as processes, the local stand-in of Stripe's hosted checkout included.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
	"github.com/podiumhq/podium/system/stack/suite"
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
			fmt.Fprintln(os.Stderr, "browser: chromium is not installed (make chromium installs it)")
			return 1
		}
		return m.Run()
	}
	return suite.Suite{
		Name:    "browser",
		Timeout: 10 * time.Minute,
		Options: stack.Options{OwnRedis: true, StripeMock: true, HostedCheckout: true},
		Ready: func(ctx context.Context, s *stack.Stack) error {
			sys = s
			var err error
			if root, err = stack.RepoRoot("."); err != nil {
				return err
			}
			demo, err = s.SeedDemo(ctx)
			return err
		},
	}.Run(m)
}
