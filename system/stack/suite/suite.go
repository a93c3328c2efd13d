// Package suite runs a test package's tests against a whole stack (system/stack) that it
// builds and starts before them and stops after them; it is kept apart from system/stack so
// that binaries starting a stack (devstack, bench) do not build in the testing package.
package suite

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

// Suite is a test package's stack, built and started before its tests and stopped after them.
type Suite struct {
	// Name names the suite in its errors, its build directory and its service log.
	Name string
	// Timeout bounds the suite's run, tests included.
	Timeout time.Duration
	// Options start the stack; Run sets BinDir and Output, and PostgresURL when empty.
	Options stack.Options
	// Ready receives the running stack before the tests: the suite keeps it and seeds it there.
	Ready func(ctx context.Context, s *stack.Stack) error
}

// Run builds the binaries, starts the stack, calls Ready and runs the tests, then stops the
// stack and removes the binaries. It returns the exit code for os.Exit. The services log to a
// file in the temporary directory, named when starting fails or a test does.
func (su Suite) Run(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), su.Timeout)
	defer cancel()
	binDir, err := stack.BuildTemp(ctx, "podium-"+su.Name+"-bin")
	if binDir != "" {
		defer os.RemoveAll(binDir)
	}
	if err != nil {
		return su.fail(err)
	}
	logs, err := os.Create(filepath.Join(os.TempDir(), "podium-"+su.Name+"-services.log")) //nolint:gosec // a test run's log, at a name its README gives
	if err != nil {
		return su.fail(err)
	}
	defer logs.Close()
	o := su.Options
	o.BinDir, o.Output = binDir, logs
	if o.PostgresURL == "" {
		o.PostgresURL = testkit.PostgresAdminURL()
	}
	s, err := stack.Start(ctx, o)
	if err != nil {
		return su.fail(fmt.Errorf("%w (service logs: %s)", err, logs.Name()))
	}
	defer func() {
		if err := s.Stop(); err != nil {
			su.fail(fmt.Errorf("stop: %w", err))
		}
	}()
	if err := su.Ready(ctx, s); err != nil {
		return su.fail(fmt.Errorf("%w (service logs: %s)", err, logs.Name()))
	}
	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "service logs: %s\n", logs.Name())
	}
	return code
}

// fail reports err as the suite's and returns the failing exit code.
func (su Suite) fail(err error) int {
	fmt.Fprintf(os.Stderr, "%s: %v\n", su.Name, err)
	return 1
}
