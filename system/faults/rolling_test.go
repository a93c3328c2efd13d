package faults

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestRollingRestart restarts every instance of every service, one at a time, under load, as a
// rolling deployment does: each owner instance leaves its front, finishes what it has in flight
// and comes back before the next goes; the gateways, which clients reach directly, are
// restarted in turn too (a client turns to the other meanwhile). No request fails beyond those
// a client may retry (a 503 with Retry-After, a connection refused or cut: the session carries
// its idempotencyKey), and nothing paid is lost or doubled.
func TestRollingRestart(t *testing.T) {
	s := newShop(t, 0)
	l := startLoad(t, s)
	testkit.Eventually(t, time.Minute, func() string { return unless(l.sent() >= 5, "%d purchases paid before the restarts, want 5", l.sent()) })
	restarted := 0
	for _, svc := range append(append([]string{}, owners...), "gateway") {
		for _, name := range sys.Instances(svc) {
			if err := sys.RestartInstance(t.Context(), name); err != nil {
				t.Fatal(err)
			}
			restarted++
			before := l.sent()
			testkit.Eventually(t, time.Minute, func() string {
				return unless(l.sent() > before, "no purchase paid since %s came back", name)
			})
		}
	}
	paid := l.stopLoad()
	c := s.settle(t, paid, 2*time.Minute)
	report(t, "rolling-restart", c, &l.tally)
	t.Logf("FAULTS %-20s instances restarted one at a time: %d", "rolling-restart", restarted)
}
