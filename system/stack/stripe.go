package stack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// startStripeMock runs Stripe's official stripe-mock (from PATH, else BinDir/tools) unless a
// Stripe key is set, and records its base URL for checkout.
func (s *Stack) startStripeMock(ctx context.Context) error {
	if s.opts.StripeSecretKey != "" || !s.opts.StripeMock {
		return nil
	}
	path, err := exec.LookPath("stripe-mock")
	if err != nil {
		// make tools installs it beside the services' binaries.
		path = bin(s.opts.BinDir, filepath.Join("tools", "stripe-mock"))
		if _, serr := os.Stat(path); serr != nil {
			return fmt.Errorf("stack: stripe-mock is neither on PATH nor in %s (make tools installs it): %w", filepath.Dir(path), err)
		}
	}
	port := s.opts.StripeMockPort
	if port == 0 {
		if port, err = FreePort(); err != nil {
			return err
		}
	}
	p, err := startProcess("stripe-mock", path, []string{"-http-port", strconv.Itoa(port), "-https-port", "0"}, nil, s.opts.Output)
	if err != nil {
		return err
	}
	s.stripeMock = p
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := AwaitListen(ctx, addr, p.exited); err != nil {
		if p.exited() {
			return fmt.Errorf("stack: stripe-mock exited: %w", p.err)
		}
		return fmt.Errorf("stack: stripe-mock: %w", err)
	}
	s.StripeURL = "http://" + addr
	return s.startStripeRecorder()
}
