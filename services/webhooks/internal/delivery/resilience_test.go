package delivery_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// flakyStore is the real store whose first failures Record calls fail before reaching it, as
// when the database is briefly down.
type flakyStore struct {
	delivery.Store
	failures atomic.Int64
	calls    atomic.Int64
}

func (s *flakyStore) Record(ctx context.Context, r delivery.Record, decide func(*time.Time) delivery.Outcome) (delivery.Outcome, error) {
	s.calls.Add(1)
	if s.failures.Add(-1) >= 0 {
		return delivery.Outcome{}, errors.New("connection refused")
	}
	return s.Store.Record(ctx, r, decide)
}

func TestAnAttemptIsRecordedOnceTheStoreAnswersAgain(t *testing.T) {
	r := newRig(t, 0, 0)
	store := &flakyStore{Store: r.d.Store}
	store.failures.Store(2)
	r.d.Store = store
	h := newHook(t, nil)
	e := r.db.Endpoint(h.url(), r.now, delivery.NewSecret())
	d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	r.start()
	r.waitFor(d, "succeeded", 1)
	if n, calls := len(h.requests()), store.calls.Load(); n != 1 || calls != 3 {
		t.Fatalf("%d requests and %d recordings, want 1 request recorded at the third try", n, calls)
	}
}

func TestStoppingFinishesAndRecordsTheAttemptsUnderWay(t *testing.T) {
	r := newRig(t, 0, 0)
	slow := newBlocking()
	e := r.db.Endpoint(newHook(t, slow.respond).url(), r.now, delivery.NewSecret())
	d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- r.d.Run(ctx) }()
	<-slow.arrived
	cancel()
	select {
	case err := <-stopped:
		t.Fatalf("Run returned (%v) with an attempt under way", err)
	default:
	}
	close(slow.release)
	if err := <-stopped; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := r.db.Get(d); got.Status != "succeeded" || got.Attempts != 1 {
		t.Fatalf("after stopping: %+v, want the attempt under way recorded", got)
	}
}
