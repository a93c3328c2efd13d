package faults

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// hookTypes are the webhooks a paid purchase gives its organizer, one of each: the webhook
// scenarios' receivers subscribe to these alone, so each counts what it is owed.
var hookTypes = []string{"registration.created", "order.completed"}

// webhookBuyers are the webhook scenarios' load: one buyer, a few purchases a second, each
// owing two webhooks, so that what piles up in an outage is delivered within the scenario.
const webhookBuyers = 1

// startHookReceiver starts a receiver registered as an endpoint of the shop's organizer for
// hookTypes. It verifies signatures without the five-minute window around its own clock: the
// webhooks service runs ahead of it (stack.AdvanceWebhooksClock).
func startHookReceiver(t *testing.T, s *shop, o stack.ReceiverOptions) (*stack.Receiver, stack.WebhookEndpoint) {
	t.Helper()
	o.IgnoreTimestamp = true
	r, e, err := sys.StartWebhookReceiver(t.Context(), o, s.secret.Key, hookTypes...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r, e
}

// buy makes n purchases of the shop, 8 buyers at a time, and returns those paid.
func buy(t *testing.T, s *shop, tl *tally, n int) []*purchase {
	t.Helper()
	var g gateways
	var mu sync.Mutex
	var paid []*purchase
	inParallel(8, n, func(int) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		p := s.newPurchase()
		if a := s.open(ctx, &g, tl, p); a.status != 201 {
			tl.fail("session", a)
			return
		}
		if s.pay(ctx, t, &g, tl, p) {
			mu.Lock()
			paid = append(paid, p)
			mu.Unlock()
		}
	})
	return paid
}

// hook is what a scenario reads of a webhook's body.
type hook struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      struct {
		ObjectID string `json:"objectId"`
		Sequence int64  `json:"sequence"`
	} `json:"data"`
}

// eventKey is one event as a receiver tells events apart: its type, object and sequence.
type eventKey struct {
	typ, object string
	sequence    int64
}

// hookCounts are what a webhook scenario reports and asserts on. sent are the webhooks the
// organizer is owed (a registration.created and an order.completed per paid purchase);
// delivered the webhook-ids the receiver verified and acknowledged; lost the owed ones never
// delivered; doubled the webhook-ids delivered with two different bodies, and the events
// (type, object, sequence) delivered under two webhook-ids; redelivered the deliveries of an id
// beyond its first (allowed: a receiver dedupes on webhook-id).
type hookCounts struct {
	sent, delivered, lost, doubled, redelivered int
}

// countHooks counts what r verified and acknowledged against the purchases paid.
func countHooks(r *stack.Receiver, paid []*purchase) hookCounts {
	bodies := map[string][]byte{}
	idsOf := map[eventKey][]string{}
	created := map[string]bool{}
	completed := map[string]bool{}
	c := hookCounts{sent: len(hookTypes) * len(paid)}
	badBody := map[string]bool{}
	for _, w := range r.Webhooks() {
		if !w.Verified || w.Status/100 != 2 {
			continue
		}
		if first, seen := bodies[w.ID]; seen {
			c.redelivered++
			if string(first) != string(w.Body) && !badBody[w.ID] {
				badBody[w.ID] = true
				c.doubled++
			}
			continue
		}
		bodies[w.ID] = w.Body
		var h hook
		if json.Unmarshal(w.Body, &h) != nil {
			continue
		}
		key := eventKey{h.Type, h.Data.ObjectID, h.Data.Sequence}
		idsOf[key] = append(idsOf[key], w.ID)
		switch h.Type {
		case "registration.created":
			created[h.Data.ObjectID] = true
		case "order.completed":
			completed[h.Data.ObjectID] = true
		}
	}
	c.delivered = len(bodies)
	for _, ids := range idsOf {
		c.doubled += len(ids) - 1
	}
	for _, p := range paid {
		if !completed[p.orderID] {
			c.lost++
		}
	}
	c.lost += max(0, len(paid)-len(created))
	return c
}

// settleHooks waits up to wait for every webhook owed for the purchases paid to reach r, and
// returns the counts then.
func settleHooks(t *testing.T, r *stack.Receiver, paid []*purchase, wait time.Duration) hookCounts {
	t.Helper()
	deadline := time.After(wait)
	for {
		arrived := r.Arrived()
		c := countHooks(r, paid)
		if c.lost == 0 {
			return c
		}
		select {
		case <-arrived:
		case <-deadline:
			return c
		}
	}
}

// reportHooks prints a webhook scenario's counts in the fixed format the notes copy, then
// asserts that nothing was lost or doubled.
func reportHooks(t *testing.T, scenario string, c hookCounts, tl *tally) {
	t.Helper()
	t.Logf("FAULTS %-20s sent=%d delivered=%d lost=%d doubled=%d redelivered=%d",
		scenario, c.sent, c.delivered, c.lost, c.doubled, c.redelivered)
	if c.sent == 0 {
		t.Error("no purchase was paid: nothing was owed")
	}
	if c.lost != 0 || c.doubled != 0 {
		t.Errorf("%d webhooks lost and %d doubled, want none", c.lost, c.doubled)
	}
	if n := tl.failed.Load(); n > 0 {
		t.Errorf("%d requests failed in a way a client may not retry; first: %v", n, tl.failures)
	}
}

// deliveryState is an endpoint's deliveries as the webhooks database holds them.
type deliveryState struct {
	total, pending, succeeded, leased int
	// minAttempts is the fewest attempts any has had.
	minAttempts int
}

// webhooksDB is a connection to the webhooks database for a test's reads, made once and
// directly (not through the link a scenario cuts): the machine's Postgres, shared with other
// stacks, may be short of connections for a moment.
func webhooksDB(t *testing.T) *pgx.Conn {
	t.Helper()
	var conn *pgx.Conn
	testkit.Eventually(t, 30*time.Second, func() string {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, sys.DatabaseURL("webhooks"))
		if err != nil {
			return err.Error()
		}
		conn = c
		return ""
	})
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// deliveriesOf reads the endpoint's deliveries; leased counts the pending ones leased at the
// webhooks service's now.
func deliveriesOf(t *testing.T, db *pgx.Conn, endpointID string) deliveryState {
	t.Helper()
	var d deliveryState
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	err := db.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status = 'pending'),
		count(*) FILTER (WHERE status = 'succeeded'), count(*) FILTER (WHERE status = 'pending' AND leased_until > $2),
		coalesce(min(attempts), 0) FROM deliveries WHERE endpoint_id = $1`,
		endpointID, sys.WebhooksNow()).Scan(&d.total, &d.pending, &d.succeeded, &d.leased, &d.minAttempts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// waitAttempted waits until the endpoint has want deliveries, each attempted n times at
// least, none in flight.
func waitAttempted(t *testing.T, db *pgx.Conn, endpointID string, want, n int) {
	t.Helper()
	testkit.Eventually(t, 90*time.Second, func() string {
		d := deliveriesOf(t, db, endpointID)
		return unless(d.total == want && d.minAttempts >= n && d.leased == 0,
			"%d deliveries of %d, the least attempted %d times (want %d), %d in flight", d.total, want, d.minAttempts, n, d.leased)
	})
}

// waitSucceeded waits until the webhooks service recorded the endpoint's want deliveries as
// succeeded: a receiver has a webhook before the service records its answer.
func waitSucceeded(t *testing.T, db *pgx.Conn, endpointID string, want int) {
	t.Helper()
	testkit.Eventually(t, time.Minute, func() string {
		d := deliveriesOf(t, db, endpointID)
		return unless(d.succeeded == want, "%d of %d deliveries recorded as succeeded", d.succeeded, want)
	})
}

// attemptTimes reads, per delivery of the endpoint, when each attempt started, in order, on the
// webhooks service's clock.
func attemptTimes(t *testing.T, db *pgx.Conn, endpointID string) map[string][]time.Time {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	rows, err := db.Query(ctx, `SELECT a.delivery_id, a.started_at FROM attempts a JOIN deliveries d ON d.id = a.delivery_id
		WHERE d.endpoint_id = $1 ORDER BY a.delivery_id, a.n`, endpointID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]time.Time{}
	for rows.Next() {
		var id string
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], at)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// percentile is the p-th percentile (0..1) of ds, sorted in place; 0 without any.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(float64(len(ds))*p))]
}
