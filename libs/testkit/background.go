package testkit

import (
	"context"
	"testing"
)

// Background runs fn until the test ends, then cancels its context, waits for it to return and
// fails the test with any error it returned.
func Background(t testing.TB, fn func(context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan error, 1)
	go func() { done <- fn(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("background: %v", err)
		}
	})
}
