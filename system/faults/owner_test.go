package faults

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

// ownerOutage is how long registration, every instance, stays down.
const ownerOutage = 10 * time.Second

// TestOwnerDown: every instance of registration is stopped for 10 s under load. The gateway
// answers its routes 503 in the standard format with Retry-After (not 502), checkout answers a
// session that needs a hold the same way, clients retry, and once registration is back every
// payment is confirmed exactly once.
func TestOwnerDown(t *testing.T) {
	s := newShop(t, 0)
	l := startLoad(t, s)
	testkit.Eventually(t, time.Minute, func() string { return unless(l.sent() >= 5, "%d purchases paid before the outage, want 5", l.sent()) })
	instances := sys.Instances("registration")
	for _, name := range instances {
		if err := sys.StopService(name); err != nil {
			t.Fatal(err)
		}
	}
	probes, bad := probeUnavailable(t, s, time.Now().Add(ownerOutage))
	for _, name := range instances {
		if err := sys.StartService(t.Context(), name); err != nil {
			t.Fatal(err)
		}
	}
	after := l.sent()
	testkit.Eventually(t, time.Minute, func() string {
		return unless(l.sent() >= after+5, "%d purchases paid after registration came back, want 5", l.sent()-after)
	})
	paid := l.stopLoad()
	c := s.settle(t, paid, 2*time.Minute)
	report(t, "owner-down-10s", c, &l.tally)
	t.Logf("FAULTS %-20s organizer reads while registration was down: %d, answered other than 503 with Retry-After: %d", "owner-down-10s", probes, bad)
	if bad > 0 || probes == 0 {
		t.Errorf("%d of %d organizer reads while registration was down were not 503 with Retry-After", bad, probes)
	}
}
