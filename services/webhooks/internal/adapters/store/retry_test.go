package store_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
)

// owner is the organization of deliverytest's endpoints.
var owner = app.Owner{OrganizerID: "org_test", Livemode: true}

// failAttempt claims the delivery due at at and records a 500 for it.
func failAttempt(t *testing.T, s delivery.Store, at time.Time) {
	t.Helper()
	jobs := claim(t, s, at, 1, 4)
	if len(jobs) != 1 {
		t.Fatalf("at %v claimed %d deliveries, want 1", at, len(jobs))
	}
	if _, err := record(t, s, jobs[0], delivery.Response{StatusCode: 500}, at); err != nil {
		t.Fatal(err)
	}
}

// A manual retry or recover attempts a delivery at once and, when that fails, retries it on
// the schedule from its start (5 s, 5 min, …) within a new 3-day window; attempts keep their
// numbers.
func TestRetryAndRecoverRestartTheSchedule(t *testing.T) {
	db := deliverytest.NewDB(t)
	s, repo := db.Store(), store.New(db.Pool)
	e := db.Endpoint(url, now, delivery.NewSecret())
	d := db.Delivery(e, db.Message(`{}`, now), now)
	at := now
	for db.Get(d).Status == "pending" {
		failAttempt(t, s, at)
		if next := db.Get(d).NextAttemptAt; next != nil {
			at = *next
		}
	}
	exhausted := db.Get(d).Attempts
	if exhausted < 10 {
		t.Fatalf("failed after %d attempts, want the whole schedule", exhausted)
	}

	recovered := now.Add(delivery.RetryWindow + time.Hour)
	if n, err := repo.RecoverDeliveries(t.Context(), owner, e, now.Add(-time.Hour), recovered); err != nil || n != 1 {
		t.Fatalf("recovered %d: %v", n, err)
	}
	failAttempt(t, s, recovered)
	got := db.Get(d)
	if got.Status != "pending" || got.Attempts != exhausted+1 || !got.FirstAttemptAt.Equal(recovered) ||
		!got.NextAttemptAt.Equal(recovered.Add(5*time.Second)) {
		t.Fatalf("after a recover and a failed attempt: %+v, want attempt %d and the next 5 s later", got, exhausted+1)
	}

	retried := recovered.Add(time.Second)
	if _, err := repo.RetryDelivery(t.Context(), owner, e, d, retried); err != nil {
		t.Fatal(err)
	}
	failAttempt(t, s, retried)
	if got := db.Get(d); got.Attempts != exhausted+2 || !got.FirstAttemptAt.Equal(retried) || !got.NextAttemptAt.Equal(retried.Add(5*time.Second)) {
		t.Fatalf("after a retry and a failed attempt: %+v", got)
	}
	failAttempt(t, s, retried.Add(5*time.Second))
	if got := db.Get(d); !got.NextAttemptAt.Equal(retried.Add(5*time.Second + 5*time.Minute)) {
		t.Fatalf("the second attempt after a retry is next at %v, want 5 min later", got.NextAttemptAt)
	}
	for i, a := range db.Attempts(d) {
		if a.N != i+1 {
			t.Fatalf("attempt %d is numbered %d", i+1, a.N)
		}
	}
}
