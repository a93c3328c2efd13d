package delivery_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// blocking is a receiver that holds every request until released, counting those it holds.
type blocking struct {
	mu       sync.Mutex
	held     int
	mostHeld int
	arrived  chan struct{}
	release  chan struct{}
}

func newBlocking() *blocking {
	return &blocking{arrived: make(chan struct{}, 100), release: make(chan struct{})}
}

func (b *blocking) respond(_ int, _ http.ResponseWriter) {
	b.mu.Lock()
	b.held++
	b.mostHeld = max(b.mostHeld, b.held)
	b.mu.Unlock()
	b.arrived <- struct{}{}
	<-b.release
	b.mu.Lock()
	b.held--
	b.mu.Unlock()
}

func (b *blocking) most() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mostHeld
}

func TestASlowEndpointDoesNotDelayAnotherNorFillThePool(t *testing.T) {
	r := newRig(t, 3, 2)
	r.d.PerOrganization = 3 // both endpoints are one organization's: the cap here is the endpoint's
	slow := newBlocking()
	slowHook, fastHook := newHook(t, slow.respond), newHook(t, nil)
	released := false
	release := func() {
		if !released {
			released = true
			close(slow.release)
		}
	}
	slowEndpoint := r.db.Endpoint(slowHook.url(), r.now, delivery.NewSecret())
	fastEndpoint := r.db.Endpoint(fastHook.url(), r.now, delivery.NewSecret())
	var slowOnes, fastOnes []string
	for i := range 6 { // due before the fast endpoint's, so claimed first
		slowOnes = append(slowOnes, r.db.Delivery(slowEndpoint, r.db.Message(body, r.now), r.now.Add(-time.Hour+time.Duration(i)*time.Second)))
	}
	for range 8 {
		fastOnes = append(fastOnes, r.db.Delivery(fastEndpoint, r.db.Message(body, r.now), r.now))
	}
	r.start()
	t.Cleanup(release) // runs before the dispatcher stops, which waits for its attempts

	<-slow.arrived
	<-slow.arrived
	for _, d := range fastOnes {
		r.waitFor(d, "succeeded", 1)
	}
	if n, most := len(slowHook.requests()), slow.most(); n != 2 || most != 2 {
		t.Fatalf("while the slow endpoint holds its requests it got %d, at most %d at once; want its 2", n, most)
	}
	release()
	for _, d := range slowOnes {
		r.waitFor(d, "succeeded", 1)
	}
	if most := slow.most(); most != 2 {
		t.Fatalf("the slow endpoint had %d requests at once, want at most 2", most)
	}
}

func TestADeliveryLeasedByAnInstanceThatDiedIsAttemptedOnceItsLeaseEnds(t *testing.T) {
	r := newRig(t, 0, 0)
	h := newHook(t, nil)
	secret := delivery.NewSecret()
	e := r.db.Endpoint(h.url(), r.now, secret)
	msg := r.db.Message(body, r.now)
	d := r.db.Delivery(e, msg, r.now)
	// Another instance claims it and dies before attempting it.
	crashed, err := r.db.Store().Claim(context.Background(), delivery.Claim{Now: r.now, LeaseUntil: r.now.Add(delivery.Lease), Max: 10, PerEndpoint: 4, PerOrganization: 4})
	if err != nil || len(crashed) != 1 {
		t.Fatalf("the other instance's claim: %v, %v", crashed, err)
	}
	r.start()
	r.poke()
	r.clock.Advance(delivery.Lease - time.Second)
	r.poke()
	r.poke()
	if n := len(h.requests()); n != 0 {
		t.Fatalf("%d requests while the lease runs, want none", n)
	}
	r.clock.Advance(time.Second)
	r.poke()
	r.waitFor(d, "succeeded", 1)
	reqs := h.requests()
	if len(reqs) != 1 || reqs[0].header.Get("webhook-id") != msg {
		t.Fatalf("%d requests, want the one attempt", len(reqs))
	}
	verifyRequest(t, secret, reqs[0], r.now.Add(delivery.Lease))
}

func TestTheAttemptAtTheEndOfTheRetryWindowIsTheLast(t *testing.T) {
	r := newRig(t, 0, 0)
	h := newHook(t, status(http.StatusBadGateway))
	e := r.db.Endpoint(h.url(), r.now, delivery.NewSecret())
	d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	r.db.Retried(d, 9, r.now.Add(-delivery.RetryWindow))
	exhausted := countFailed(t, "exhausted")
	r.start()
	got := r.waitFor(d, "failed", 10)
	if *got.LastStatusCode != 502 || got.NextAttemptAt != nil || !got.FinishedAt.Equal(r.now) {
		t.Fatalf("delivery %+v", got)
	}
	if ep := r.db.GetEndpoint(e); ep.Status != "enabled" {
		t.Fatalf("endpoint %+v, want it enabled: it failed for a moment only", ep)
	}
	if n := countFailed(t, "exhausted"); n != exhausted+1 {
		t.Fatalf("failed{reason=exhausted} moved by %d", n-exhausted)
	}
}

func TestAnEndpointFailingForFiveDaysIsDisabled(t *testing.T) {
	r := newRig(t, 0, 0)
	h := newHook(t, status(http.StatusInternalServerError))
	e := r.db.Endpoint(h.url(), r.now, delivery.NewSecret())
	r.db.SetFailingSince(e, r.now.Add(-delivery.FailingLimit))
	d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	waiting := r.db.Delivery(e, r.db.Message(body, r.now), r.now.Add(time.Minute))
	r.start()
	r.waitFor(d, "failed", 1)
	if ep := r.db.GetEndpoint(e); ep.Status != "disabled" || *ep.DisabledReason != "failing" {
		t.Fatalf("endpoint %+v, want disabled as failing", ep)
	}
	if got := r.db.Get(waiting); got.Status != "failed" || *got.LastError != "endpoint disabled" {
		t.Fatalf("its other delivery %+v", got)
	}
}

func TestTheBacklogGaugeReadsTheDueDeliveries(t *testing.T) {
	r := newRig(t, 0, 0)
	r.d.Scan = 10 * time.Millisecond
	h := newBlocking()
	e := r.db.Endpoint(newHook(t, h.respond).url(), r.now, delivery.NewSecret())
	for range 7 {
		r.db.Delivery(e, r.db.Message(body, r.now), r.now)
	}
	r.start()
	t.Cleanup(func() { close(h.release) }) // runs before the dispatcher stops
	testkit.Eventually(t, 10*time.Second, func() string {
		if n := gauge(t, "webhooks.deliveries.due"); n != 3 {
			return "backlog gauge " + itoa(n) + ", want 3 (7 due, 4 in flight)"
		}
		return ""
	})
}

func TestAnOrganizationWithBlockedEndpointsLeavesWorkersToAnother(t *testing.T) {
	r := newRig(t, 6, 1)
	r.d.PerOrganization = 3
	blocked := newBlocking()
	for i := range 8 { // a backlog due for an hour on endpoints that never answer
		e := r.db.EndpointOf("org_big", newHook(t, blocked.respond).url(), r.now, delivery.NewSecret())
		for k := range 3 {
			r.db.Delivery(e, r.db.Message(body, r.now), r.now.Add(-time.Hour+time.Duration(i*3+k)*time.Second))
		}
	}
	other := newHook(t, nil)
	e := r.db.EndpointOf("org_small", other.url(), r.now, delivery.NewSecret())
	r.start()
	t.Cleanup(func() { close(blocked.release) }) // runs before the dispatcher stops
	for range 3 {
		<-blocked.arrived
	}
	// The big organization holds its 3 workers; the small one's new events still go out.
	for range 3 {
		d := r.db.Delivery(e, r.db.Message(body, r.now), r.now)
		r.poke()
		r.waitFor(d, "succeeded", 1)
	}
	if most := blocked.most(); most != 3 {
		t.Fatalf("the blocked organization had %d attempts at once, want its cap of 3", most)
	}
}
