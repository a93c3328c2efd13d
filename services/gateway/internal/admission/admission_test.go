package admission

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestPublicReadsAreShedBeforePayments: while the owners' limits are full and their queues
// together hold between two and three times their limits, the shared prioritizer refuses at
// once the lowest levels seen queueing, here every public read (of the catalog), while
// checkout sessions (of checkout) are still admitted to wait for a place; once the queues
// drained, public reads are admitted again.
func TestPublicReadsAreShedBeforePayments(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 10
		c := New([]string{"catalog", "checkout"}, Options{MaxWait: time.Hour, InitialLimit: limit, MaxLimit: limit})
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel() // a failure below must not leave the queued requests waiting
		var held []Permit
		for _, owner := range []string{"catalog", "checkout"} {
			for range limit {
				p, err := c.Admit(ctx, owner, Payments)
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, p)
			}
		}
		// 50 queued in all: between the queues' rejection threshold (twice the limits, 40) and
		// their maximum (three times, 60), so half the levels seen queueing are refused.
		var queued sync.WaitGroup
		var failed atomic.Int32
		queue := func(owner string, prio Priority, n int) {
			for range n {
				queued.Go(func() {
					p, err := c.Admit(ctx, owner, prio)
					if err != nil {
						failed.Add(1)
						return
					}
					p.Record()
				})
			}
		}
		queue("catalog", Public, 20)
		queue("checkout", Payments, 30)
		synctest.Wait()
		c.prioritizer.Calibrate()

		for range 100 {
			if c.Admits(ctx, "catalog", Public) {
				t.Fatal("a public read was admitted while public reads fill the queues' lowest levels")
			}
		}
		payments := 0
		for range 100 {
			if c.Admits(ctx, "checkout", Payments) {
				payments++
			}
		}
		if payments < 50 {
			t.Fatalf("%d of 100 checkout sessions admitted while shedding, want most", payments)
		}
		if _, err := c.Admit(ctx, "catalog", Public); !errors.Is(err, ErrShed) {
			t.Fatalf("Admit of a public read while shedding: %v, want ErrShed at once", err)
		}

		for _, p := range held {
			p.Record()
		}
		queued.Wait()
		if n := failed.Load(); n > 0 {
			t.Fatalf("%d of the requests queued before the shedding began were refused", n)
		}
		c.prioritizer.Calibrate()
		if !c.Admits(ctx, "catalog", Public) {
			t.Fatal("public reads are still refused once the queues drained")
		}
	})
}

// TestAWaitLongerThanMaxWaitIsShed: a request queued behind a full limit for longer than
// MaxWait is refused rather than left waiting.
func TestAWaitLongerThanMaxWaitIsShed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New([]string{"registration"}, Options{MaxWait: 250 * time.Millisecond, InitialLimit: 1, MaxLimit: 1})
		held, err := c.Admit(t.Context(), "registration", Writes)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Admit(t.Context(), "registration", Writes); !errors.Is(err, ErrShed) || time.Since(start) != 250*time.Millisecond {
			t.Fatalf("a request behind a full limit: %v after %v, want ErrShed after MaxWait", err, time.Since(start))
		}
		held.Record()
		if p, err := c.Admit(t.Context(), "registration", Writes); err != nil {
			t.Fatalf("once the place was given back: %v", err)
		} else {
			p.Record()
		}
	})
}
