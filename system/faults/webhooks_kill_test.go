package faults

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

const (
	// backlogPurchases make the backlog: two webhooks each.
	backlogPurchases = 150
	// backlogAnswer is how long the receiver takes over each webhook, so that the backlog
	// takes seconds to drain.
	backlogAnswer = 100 * time.Millisecond
	// deliveryLease is how long a claimed delivery stays its dispatcher's.
	deliveryLease = time.Minute
)

// TestWebhooksKilledMidBacklog: a backlog of 300 deliveries (the receiver refused their first
// attempts; the test moves the webhooks clock so that their retries come due at once) is draining when every webhooks instance is killed
// (SIGKILL). The instances start again and deliver the rest; the deliveries the killed ones had
// leased wait for their leases to end (the test moves the webhooks clock past them), then are
// delivered too. Nothing is lost; what the killed instances had sent but not recorded arrives
// again under the same webhook-id.
func TestWebhooksKilledMidBacklog(t *testing.T) {
	s := newShop(t, 0)
	var open atomic.Bool
	r, e := startHookReceiver(t, s, stack.ReceiverOptions{Status: func(stack.Webhook) int {
		if !open.Load() {
			return 503
		}
		<-time.After(backlogAnswer)
		return 200
	}})
	db := webhooksDB(t)
	var tl tally
	paid := buy(t, s, &tl, backlogPurchases)
	owed := len(hookTypes) * len(paid)
	waitAttempted(t, db, e.ID, owed, 1)
	open.Store(true)
	// The first buyers' deliveries were refused twice by now (5 s apart): moving past the
	// second wait makes every retry due at once.
	advancePast(t, scheduled(2))
	testkit.Eventually(t, time.Minute, func() string {
		n := countHooks(r, paid).delivered
		return unless(n >= owed/3, "%d of %d delivered before the kill, want a third", n, owed)
	})
	instances := sys.Instances("webhooks")
	for _, name := range instances {
		if err := sys.KillInstance(name); err != nil {
			t.Fatal(err)
		}
	}
	killed, killedAt := deliveriesOf(t, db, e.ID), time.Now()
	for _, name := range instances {
		if err := sys.StartService(t.Context(), name); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Eventually(t, time.Minute, func() string {
		d := deliveriesOf(t, db, e.ID)
		return unless(d.succeeded >= owed-killed.leased, "%d of %d delivered, want all but the %d the killed instances had leased",
			d.succeeded, owed, killed.leased)
	})
	// Within the leases, what the killed instances held waits for them to end.
	if d := deliveriesOf(t, db, e.ID); time.Since(killedAt) < deliveryLease-5*time.Second && d.leased != killed.leased {
		t.Errorf("%d deliveries leased once the rest were delivered, want the %d the killed instances held", d.leased, killed.leased)
	}
	if err := sys.AdvanceWebhooksClock(deliveryLease); err != nil {
		t.Fatal(err)
	}
	c := settleHooks(t, r, paid, time.Minute)
	waitSucceeded(t, db, e.ID, owed)
	reportHooks(t, "webhooks-killed", c, &tl)
	t.Logf("FAULTS %-20s killed %v with %d of %d delivered; %d leased by them, delivered once their leases ended",
		"webhooks-killed", instances, killed.succeeded, owed, killed.leased)
	if killed.leased == 0 {
		t.Error("the killed instances held no delivery: the kill did not fall mid-drain")
	}
}
