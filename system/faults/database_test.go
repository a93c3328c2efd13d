package faults

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// The registration database outage: 60 s, while the payments of 500 sessions opened
// before it arrive.
const (
	databaseOutage = 60 * time.Second
	outagePayments = 500
)

// TestRegistrationDatabaseDown: registration's Postgres is unreachable for 60 s under load
// while the payments of 500 open sessions arrive (spread over the outage). Meanwhile every
// instance of registration fails readiness and the organizer API answers 503 with Retry-After,
// never 500; once the database is back registration recovers without a restart, and every
// payment, of those sessions and of the load's, is confirmed exactly once.
func TestRegistrationDatabaseDown(t *testing.T) {
	s := newShop(t, 0)
	var tl tally
	var g gateways
	sessions := openSessions(t, s, &g, &tl, outagePayments)
	pids := instancePIDs("registration")
	l := startLoad(t, s)
	if err := sys.Cut(stack.PostgresLink("registration")); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	testkit.Eventually(t, 30*time.Second, func() string {
		return unless(!anyReady("registration"), "registration is still ready with its database unreachable")
	})
	var paid []*purchase
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		paid = payOver(t, s, &g, &tl, sessions, cut, databaseOutage*2/3)
	}()
	probes, bad := probeUnavailable(t, s, cut.Add(databaseOutage))
	if err := sys.Restore(stack.PostgresLink("registration")); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, time.Minute, func() string { return unless(allReady("registration"), "registration is not ready again") })
	wg.Wait()
	paid = append(paid, l.stopLoad()...)
	c := s.settle(t, paid, 2*time.Minute)
	mergeTally(&tl, &l.tally)
	report(t, "registration-db-60s", c, &tl)
	t.Logf("FAULTS %-20s organizer reads during the outage: %d, answered other than 503 with Retry-After: %d", "registration-db-60s", probes, bad)
	if bad > 0 || probes == 0 {
		t.Errorf("%d of %d organizer reads during the outage were not 503 with Retry-After", bad, probes)
	}
	if now := instancePIDs("registration"); !equal(now, pids) {
		t.Errorf("registration was restarted (pids %v, then %v): it must recover by itself", pids, now)
	}
}

// openSessions opens n checkout sessions of the shop from 8 buyers at once.
func openSessions(t *testing.T, s *shop, g *gateways, tl *tally, n int) []*purchase {
	t.Helper()
	out := make([]*purchase, n)
	inParallel(8, n, func(i int) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		p := s.newPurchase()
		if a := s.open(ctx, g, tl, p); a.status != 201 {
			t.Errorf("session before the outage: %v", a)
		}
		out[i] = p
	})
	return out
}

// payOver delivers the paid webhooks of the sessions evenly over span from start, from 8
// deliverers as Stripe would (again until acknowledged), and returns the purchases paid.
func payOver(t *testing.T, s *shop, g *gateways, tl *tally, sessions []*purchase, start time.Time, span time.Duration) []*purchase {
	var mu sync.Mutex
	var paid []*purchase
	inParallel(8, len(sessions), func(i int) {
		<-time.After(time.Until(start.Add(span * time.Duration(i) / time.Duration(len(sessions)))))
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		if s.pay(ctx, t, g, tl, sessions[i]) {
			mu.Lock()
			paid = append(paid, sessions[i])
			mu.Unlock()
		}
	})
	return paid
}

// inParallel calls fn with 0 to n-1, in that order, from a number of workers at once.
func inParallel(workers, n int, fn func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fn(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// probeUnavailable reads the organizer's registrations twice a second until the time given,
// each once, and counts the reads and those not answered 503 in the standard format with
// Retry-After.
func probeUnavailable(t *testing.T, s *shop, until time.Time) (probes, bad int) {
	for time.Now().Before(until) {
		a := send(t.Context(), sys.GatewayURL(), s.searchRequest())
		probes++
		var b struct {
			StatusCode int    `json:"statusCode"`
			Error      string `json:"error"`
			RequestID  string `json:"requestId"`
		}
		if a.status != 503 || a.retryAfter() <= 0 || decode(a, &b) != nil || b.StatusCode != 503 || b.Error != "Service Unavailable" || b.RequestID == "" {
			bad++
			if bad <= 3 {
				t.Logf("organizer read during the outage: %v", a)
			}
		}
		<-time.After(min(500*time.Millisecond, max(0, time.Until(until))))
	}
	return probes, bad
}

// instancePIDs returns the process ids of the instances of svc.
func instancePIDs(svc string) []int {
	var out []int
	for _, name := range sys.Instances(svc) {
		out = append(out, sys.PID(name))
	}
	return out
}

// anyReady and allReady report whether any, or every, instance of svc is ready.
func anyReady(svc string) bool {
	for _, name := range sys.Instances(svc) {
		if ready(sys.InstanceURL(name)) {
			return true
		}
	}
	return false
}

func allReady(svc string) bool {
	for _, name := range sys.Instances(svc) {
		if !ready(sys.InstanceURL(name)) {
			return false
		}
	}
	return true
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
