// Package background runs a service's workers (outbox relay, consumers, sweepers) beside its
// HTTP server and stops them at shutdown, after the server drained.
package background

import (
	"context"
	"log/slog"
)

// Start runs fn in a goroutine on a context that outlives ctx's cancellation, so the worker
// keeps working while the server drains its last requests. The returned stop cancels that
// context and waits for fn to return. An error fn returns, other than on its cancellation, is
// logged once with the worker's name: a worker never fails silently.
func Start(ctx context.Context, log *slog.Logger, name string, fn func(context.Context) error) (stop func()) {
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := fn(bg); err != nil && bg.Err() == nil {
			log.ErrorContext(bg, name+" stopped", "err", err)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
