package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery/deliverytest"
)

var now = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

const url = "https://hooks.example.com/podium"

// claim claims with no cap per organization beyond max.
func claim(t *testing.T, s delivery.Store, at time.Time, max, perEndpoint int, skip ...string) []delivery.Job {
	t.Helper()
	return claimCapped(t, s, delivery.Claim{Now: at, Max: max, PerEndpoint: perEndpoint, PerOrganization: max, Skip: skip})
}

func claimCapped(t *testing.T, s delivery.Store, c delivery.Claim) []delivery.Job {
	t.Helper()
	c.LeaseUntil = c.Now.Add(delivery.Lease)
	jobs, err := s.Claim(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func ids(jobs []delivery.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.DeliveryID
	}
	return out
}

func TestClaimLeasesTheDueDeliveriesOldestFirstWithTheirSecrets(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	current, rotated, expired := delivery.NewSecret(), delivery.NewSecret(), delivery.NewSecret()
	a := db.Endpoint(url, now.Add(-time.Hour))
	db.Secret(a, current, now.Add(-time.Minute), nil)
	later := now.Add(time.Hour)
	db.Secret(a, rotated, now.Add(-2*time.Minute), &later)
	gone := now.Add(-time.Second)
	db.Secret(a, expired, now.Add(-3*time.Minute), &gone)
	b := db.Endpoint("https://b.example.com/", now.Add(-time.Hour), delivery.NewSecret())
	disabled := db.Endpoint("https://c.example.com/", now.Add(-time.Hour), delivery.NewSecret())
	db.Pool.Exec(context.Background(), `UPDATE endpoints SET status = 'disabled', disabled_reason = 'organizer' WHERE id = $1`, disabled) //nolint:errcheck

	msg := db.Message(`{"type":"order.completed"}`, now)
	dueSecond := db.Delivery(a, msg, now.Add(-time.Minute))
	dueFirst := db.Delivery(b, msg, now.Add(-2*time.Minute))
	dueNow := db.Delivery(a, db.Message(`{}`, now), now)
	db.Delivery(a, db.Message(`{}`, now), now.Add(time.Second)) // not due yet
	db.Delivery(disabled, msg, now.Add(-time.Hour))             // its endpoint is disabled
	db.Retried(dueNow, 2, now.Add(-time.Hour))

	jobs := claim(t, s, now, 10, 4)
	if got, want := ids(jobs), []string{dueFirst, dueSecond, dueNow}; !slices.Equal(got, want) {
		t.Fatalf("claimed %v, want %v", got, want)
	}
	j := jobs[1]
	if j.EndpointID != a || j.URL != url || j.MessageID != msg || string(j.Body) != `{"type":"order.completed"}` || j.Attempts != 0 || j.FirstAttemptAt != nil {
		t.Fatalf("job %+v", j)
	}
	if len(j.Secrets) != 2 || j.Secrets[0].String() != current.String() || j.Secrets[1].String() != rotated.String() || j.SecretsErr != nil {
		t.Fatalf("secrets %v (%v), want the current then the rotated one", j.Secrets, j.SecretsErr)
	}
	if third := jobs[2]; third.Attempts != 2 || third.FirstAttemptAt == nil || !third.FirstAttemptAt.Equal(now.Add(-time.Hour)) {
		t.Fatalf("a retried job: %+v", third)
	}
	if d := db.Get(dueSecond); d.LeasedUntil == nil || !d.LeasedUntil.Equal(now.Add(delivery.Lease)) || d.Status != "pending" {
		t.Fatalf("claimed delivery %+v, want leased for a minute", d)
	}
	if again := claim(t, s, now.Add(500*time.Millisecond), 10, 4); len(again) != 0 {
		t.Fatalf("claimed %v again while leased", ids(again))
	}
	if after := claim(t, s, now.Add(delivery.Lease), 10, 4); len(after) != 4 {
		t.Fatalf("after the leases ended claimed %v, want the three again and the one due since", ids(after))
	}
}

func TestClaimTakesAtMostPerEndpointCountingRunningLeases(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	busy := db.Endpoint(url, now, delivery.NewSecret())
	other := db.Endpoint("https://other.example.com/", now, delivery.NewSecret())
	for i := range 6 {
		db.Delivery(busy, db.Message(`{}`, now), now.Add(-time.Duration(10-i)*time.Second))
	}
	for range 3 {
		db.Delivery(other, db.Message(`{}`, now), now)
	}
	if jobs := claim(t, s, now, 1, 4); len(jobs) != 1 || jobs[0].EndpointID != busy {
		t.Fatalf("Max 1: claimed %v", ids(jobs))
	}
	jobs := claim(t, s, now, 10, 4)
	perEndpoint := map[string]int{}
	for _, j := range jobs {
		perEndpoint[j.EndpointID]++
	}
	if perEndpoint[busy] != 3 || perEndpoint[other] != 3 {
		t.Fatalf("claimed %v per endpoint, want 3 more of the busy one (4 with the running lease) and the other's 3", perEndpoint)
	}
	if more := claim(t, s, now, 10, 4); len(more) != 0 {
		t.Fatalf("claimed %v beyond the endpoints' room", ids(more))
	}
	if skipped := claim(t, s, now.Add(delivery.Lease), 10, 4, busy); len(skipped) != 3 || skipped[0].EndpointID != other {
		t.Fatalf("skipping the busy endpoint claimed %v", ids(skipped))
	}
}

func TestConcurrentClaimsNeverOverfillAnEndpoint(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	e := db.Endpoint(url, now, delivery.NewSecret())
	for range 20 {
		db.Delivery(e, db.Message(`{}`, now), now)
	}
	var mu sync.Mutex
	var claimed []string
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			jobs := claim(t, s, now, 10, 4)
			mu.Lock()
			claimed = append(claimed, ids(jobs)...)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(claimed)
	if len(claimed) != 4 || len(slices.Compact(claimed)) != 4 {
		t.Fatalf("8 concurrent claims took %d deliveries of one endpoint, want exactly 4, each once", len(claimed))
	}
}

func record(t *testing.T, s delivery.Store, j delivery.Job, res delivery.Response, at time.Time) (delivery.Outcome, error) {
	t.Helper()
	a := j.Next(at)
	a.Response = res
	var seen *time.Time
	o, err := s.Record(context.Background(), delivery.Record{Job: j, Attempt: a, Latency: 42 * time.Millisecond},
		func(failingSince *time.Time) delivery.Outcome {
			seen = failingSince
			return delivery.Decide(a, failingSince, at, func() float64 { return 0.5 })
		})
	if err == nil && o.FailingSince != nil && seen != nil && !o.FailingSince.Equal(*seen) {
		t.Fatalf("failing since %v became %v", seen, o.FailingSince)
	}
	return o, err
}

func TestRecordStoresTheAttemptTheDeliveryAndTheEndpoint(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	e := db.Endpoint(url, now, delivery.NewSecret())
	d := db.Delivery(e, db.Message(`{}`, now), now)
	j := claim(t, s, now, 1, 4)[0]
	if _, err := record(t, s, j, delivery.Response{StatusCode: 500, Excerpt: "oops"}, now); err != nil {
		t.Fatal(err)
	}
	got := db.Get(d)
	if got.Status != "pending" || got.Attempts != 1 || got.LeasedUntil != nil || !got.NextAttemptAt.Equal(now.Add(5*time.Second)) ||
		*got.LastStatusCode != 500 || *got.LastError != "the endpoint answered 500" || !got.FirstAttemptAt.Equal(now) || got.FinishedAt != nil {
		t.Fatalf("after a 500: %+v", got)
	}
	if ep := db.GetEndpoint(e); ep.FailingSince == nil || !ep.FailingSince.Equal(now) || ep.Status != "enabled" {
		t.Fatalf("endpoint after a 500: %+v", ep)
	}
	if _, err := record(t, s, j, delivery.Response{StatusCode: 200}, now); !errors.Is(err, delivery.ErrNotLeased) {
		t.Fatalf("recording the same attempt again: %v, want ErrNotLeased", err)
	}

	later := now.Add(5 * time.Second)
	j = claim(t, s, later, 1, 4)[0]
	if _, err := record(t, s, j, delivery.Response{StatusCode: 204, Excerpt: "ok"}, later); err != nil {
		t.Fatal(err)
	}
	got = db.Get(d)
	if got.Status != "succeeded" || got.Attempts != 2 || got.NextAttemptAt != nil || got.LeasedUntil != nil || *got.LastStatusCode != 204 ||
		got.LastError != nil || !got.FinishedAt.Equal(later) || !got.FirstAttemptAt.Equal(now) {
		t.Fatalf("after a 204: %+v", got)
	}
	if ep := db.GetEndpoint(e); ep.FailingSince != nil {
		t.Fatalf("a success left the endpoint failing since %v", ep.FailingSince)
	}
	as := db.Attempts(d)
	if len(as) != 2 || as[0].N != 1 || *as[0].StatusCode != 500 || as[0].Excerpt != "oops" || as[0].Error != "the endpoint answered 500" ||
		as[1].N != 2 || !as[1].StartedAt.Equal(later) || as[1].Excerpt != "ok" || as[1].Error != "" {
		t.Fatalf("attempts %+v", as)
	}
}

func TestRecordThatDisablesFailsTheEndpointsPendingDeliveries(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	e := db.Endpoint(url, now, delivery.NewSecret())
	other := db.Endpoint("https://other.example.com/", now, delivery.NewSecret())
	d := db.Delivery(e, db.Message(`{}`, now), now)
	pending := db.Delivery(e, db.Message(`{}`, now), now.Add(time.Hour))
	untouched := db.Delivery(other, db.Message(`{}`, now), now.Add(time.Hour))
	db.SetFailingSince(e, now.Add(-delivery.FailingLimit))
	j := claim(t, s, now, 1, 4)[0]
	o, err := record(t, s, j, delivery.Response{Err: errors.New("connect: connection refused")}, now)
	if err != nil || o.Disable != delivery.Failing {
		t.Fatalf("outcome %+v, %v", o, err)
	}
	ep := db.GetEndpoint(e)
	if ep.Status != "disabled" || *ep.DisabledReason != "failing" || !ep.DisabledAt.Equal(now) {
		t.Fatalf("endpoint %+v, want disabled as failing", ep)
	}
	if got := db.Get(d); got.Status != "failed" || *got.LastError != "connect: connection refused" || got.LastStatusCode != nil {
		t.Fatalf("the attempted delivery: %+v", got)
	}
	if got := db.Get(pending); got.Status != "failed" || *got.LastError != "endpoint disabled" || !got.FinishedAt.Equal(now) || got.NextAttemptAt != nil {
		t.Fatalf("the endpoint's other delivery: %+v", got)
	}
	if got := db.Get(untouched); got.Status != "pending" {
		t.Fatalf("another endpoint's delivery: %+v", got)
	}
}

func TestBacklogCountsTheDueDeliveriesNoLeaseHolds(t *testing.T) {
	db := deliverytest.NewDB(t)
	s := db.Store()
	b, err := s.Backlog(context.Background(), now)
	if err != nil || b.Due != 0 || b.OldestDue != nil {
		t.Fatalf("empty backlog %+v, %v", b, err)
	}
	e := db.Endpoint(url, now, delivery.NewSecret())
	db.Delivery(e, db.Message(`{}`, now), now.Add(-time.Minute))
	db.Delivery(e, db.Message(`{}`, now), now.Add(-2*time.Minute))
	db.Delivery(e, db.Message(`{}`, now), now)
	db.Delivery(e, db.Message(`{}`, now), now.Add(time.Minute))
	claim(t, s, now, 1, 4)
	b, err = s.Backlog(context.Background(), now)
	if err != nil || b.Due != 2 || b.OldestDue == nil || !b.OldestDue.Equal(now.Add(-time.Minute)) {
		t.Fatalf("backlog %+v, %v; want 2 due (one leased, one not yet due), the oldest a minute ago", b, err)
	}
}
