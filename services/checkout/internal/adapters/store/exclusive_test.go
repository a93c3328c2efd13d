package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

// TestExclusivelyRunsOneAtATime: while one instance runs a function under a name, another
// instance (another database session) skips it at once, while a function under another name runs; once
// the first ends, the name is free again, also after the function failed.
func TestExclusivelyRunsOneAtATime(t *testing.T) {
	pool := checkouttest.Pool(t)
	a, b := store.New(pool), store.New(pool) // two instances, each taking its own connections
	ctx := t.Context()
	inside, leave := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		ran, err := a.Exclusively(ctx, "reconcile", func(context.Context) error {
			close(inside)
			<-leave
			return nil
		})
		if err == nil && !ran {
			err = errors.New("the first instance did not run")
		}
		done <- err
	}()
	<-inside
	if ran, err := b.Exclusively(ctx, "reconcile", func(context.Context) error { return nil }); err != nil || ran {
		t.Fatalf("a second instance ran while the first held the name: %v %v", ran, err)
	}
	if ran, err := b.Exclusively(ctx, "other", func(context.Context) error { return nil }); err != nil || !ran {
		t.Fatalf("another name did not run: %v %v", ran, err)
	}
	close(leave)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	failure := errors.New("failed")
	if ran, err := b.Exclusively(ctx, "reconcile", func(context.Context) error { return failure }); !ran || !errors.Is(err, failure) {
		t.Fatalf("after the first ended: %v %v", ran, err)
	}
	if ran, err := a.Exclusively(ctx, "reconcile", func(context.Context) error { return nil }); err != nil || !ran {
		t.Fatalf("after a failed run: %v %v", ran, err)
	}
}
