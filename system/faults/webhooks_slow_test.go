package faults

import (
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

const (
	// slowAnswer is how long the slow endpoint takes to answer, under the 15 s timeout.
	slowAnswer = 14 * time.Second
	// baselineSpan and slowSpan are how long the load runs before and while the endpoint is
	// slow.
	baselineSpan = 15 * time.Second
	slowSpan     = 30 * time.Second
	// healthyP99 bounds the healthy endpoint's p99 latency while the other is slow: far above
	// what it is, far below the slow endpoint's 14 s that it must not wait behind.
	healthyP99 = 3 * time.Second
)

// TestWebhooksSlowEndpointBesideAHealthyOne: an organizer has two endpoints for the same events;
// under the load, one starts answering after 14 s (just inside the timeout). The healthy one's
// latency (from the event, as its body's timestamp says, to the receiver) keeps near what it
// was before, measured in the same test, since the slow endpoint holds only its own few
// attempts in flight. Once the slow one answers at once again, it is owed nothing either.
func TestWebhooksSlowEndpointBesideAHealthyOne(t *testing.T) {
	s := newShop(t, 0)
	var slow atomic.Bool
	release := make(chan struct{})
	healthy, _ := startHookReceiver(t, s, stack.ReceiverOptions{})
	slowR, _ := startHookReceiver(t, s, stack.ReceiverOptions{Status: func(stack.Webhook) int {
		if slow.Load() {
			select {
			case <-time.After(slowAnswer):
			case <-release:
			}
		}
		return 200
	}})
	l := startBuyers(t, s, webhookBuyers)
	start := time.Now()
	<-time.After(baselineSpan)
	slow.Store(true)
	slowFrom := time.Now()
	<-time.After(slowSpan)
	paid := l.stopLoad()
	slowUntil := time.Now()
	c := settleHooks(t, healthy, paid, 2*time.Minute)
	slow.Store(false)
	close(release)
	slowCounts := settleHooks(t, slowR, paid, 2*time.Minute)
	reportHooks(t, "webhooks-slow-beside", c, &l.tally)
	base := latencies(healthy, start, slowFrom)
	during := latencies(healthy, slowFrom, slowUntil)
	slowGot := latencies(slowR, slowFrom, slowUntil)
	t.Logf("FAULTS %-20s healthy endpoint: p50=%s p99=%s (%d webhooks) before, p50=%s p99=%s (%d) beside the slow one; slow endpoint: p50=%s (%d) then lost=%d doubled=%d",
		"webhooks-slow-beside", ms(percentile(base, 0.5)), ms(percentile(base, 0.99)), len(base),
		ms(percentile(during, 0.5)), ms(percentile(during, 0.99)), len(during), ms(percentile(slowGot, 0.5)), len(slowGot),
		slowCounts.lost, slowCounts.doubled)
	if len(base) == 0 || len(during) == 0 {
		t.Fatal("the healthy endpoint got no webhook of an event before or while the other was slow")
	}
	if p99 := percentile(during, 0.99); p99 > healthyP99 {
		t.Errorf("the healthy endpoint's p99 was %s beside the slow one, want under %s", p99, healthyP99)
	}
	if slowCounts.lost != 0 || slowCounts.doubled != 0 {
		t.Errorf("the slow endpoint lost %d webhooks and got %d doubled", slowCounts.lost, slowCounts.doubled)
	}
}

// latencies are, for the webhooks r acknowledged of events that happened in [from, until),
// the time from the event to the receiver.
func latencies(r *stack.Receiver, from, until time.Time) []time.Duration {
	var out []time.Duration
	seen := map[string]bool{}
	for _, w := range r.Webhooks() {
		var h hook
		if !w.Verified || w.Status/100 != 2 || seen[w.ID] || json.Unmarshal(w.Body, &h) != nil {
			continue
		}
		seen[w.ID] = true
		if !h.Timestamp.Before(from) && h.Timestamp.Before(until) {
			out = append(out, w.ReceivedAt.Sub(h.Timestamp))
		}
	}
	return out
}

// ms rounds a latency for the report.
func ms(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
