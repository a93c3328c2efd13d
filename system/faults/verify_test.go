package faults

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// counts are what a scenario reports and asserts on.
type counts struct {
	// sent are the purchases paid (their webhook acknowledged); confirmed those whose order
	// registration completed; lost those it did not; doubled the confirmations beyond one per
	// purchase (a second completed order of a team, or places or tickets counted twice).
	sent, confirmed, lost, doubled int
}

// settle waits up to wait for every paid purchase of the shop to be confirmed, reading
// registration's database directly (not through the links a scenario breaks), and returns the
// counts then.
func (s *shop) settle(t *testing.T, paid []*purchase, wait time.Duration) counts {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		c, err := s.outcome(paid)
		if err != nil {
			t.Fatal(err)
		}
		if c.lost == 0 || time.Now().After(deadline) {
			return c
		}
		<-time.After(250 * time.Millisecond)
	}
}

// outcome reads, for the shop's event, the completed orders of each team, the places the quota
// ledger counts as confirmed and the active tickets of completed orders.
func (s *shop) outcome(paid []*purchase) (counts, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, sys.DatabaseURL("registration"))
	if err != nil {
		return counts{}, err
	}
	defer conn.Close(ctx)
	completed := map[string]int{}
	rows, err := conn.Query(ctx, `SELECT r.team_name, count(DISTINCT o.id) FROM registrations r JOIN orders o ON o.id = r.order_id
		WHERE r.event_id = $1 AND o.status = 'COMPLETED' GROUP BY r.team_name`, s.event.ID)
	if err != nil {
		return counts{}, err
	}
	total := 0
	for rows.Next() {
		var team string
		var n int
		if err := rows.Scan(&team, &n); err != nil {
			return counts{}, err
		}
		completed[team] = n
		total += n
	}
	if err := rows.Err(); err != nil {
		return counts{}, err
	}
	var places, tickets int
	if err := conn.QueryRow(ctx, `SELECT coalesce(sum(confirmed), 0) FROM places WHERE event_id = $1`, s.event.ID).Scan(&places); err != nil {
		return counts{}, err
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM tickets t JOIN orders o ON o.id = t.order_id
		WHERE o.event_id = $1 AND o.status = 'COMPLETED' AND t.status = 'ACTIVE'`, s.event.ID).Scan(&tickets); err != nil {
		return counts{}, err
	}
	c := counts{sent: len(paid)}
	for _, p := range paid {
		if completed[p.team] > 0 {
			c.confirmed++
		}
	}
	c.lost = c.sent - c.confirmed
	for _, n := range completed {
		c.doubled += max(0, n-1)
	}
	c.doubled += max(0, places-total) + max(0, tickets-total)
	return c, nil
}

// report prints a scenario's counts in the fixed format the notes copy, then asserts that
// nothing was lost or doubled.
func report(t *testing.T, scenario string, c counts, tl *tally) {
	t.Helper()
	t.Logf("FAULTS %-20s sent=%d confirmed=%d lost=%d doubled=%d 5xx=%d retried=%d failed=%d",
		scenario, c.sent, c.confirmed, c.lost, c.doubled, tl.fiveXX.Load(), tl.retries.Load(), tl.failed.Load())
	if c.sent == 0 {
		t.Error("no purchase was paid: the load did not run")
	}
	if c.lost != 0 || c.doubled != 0 {
		t.Errorf("%d paid purchases lost and %d confirmations doubled, want none", c.lost, c.doubled)
	}
	if n := tl.failed.Load(); n > 0 {
		t.Errorf("%d requests failed in a way a client may not retry; first: %v", n, tl.failures)
	}
}

// ready reports whether the service instance at url answers its readiness probe with 200.
func ready(url string) bool {
	a := send(context.Background(), url, request{method: "GET", path: "/readyz"})
	return a.err == nil && a.status == 200
}

// unless returns "" when cond holds and the problem described otherwise, for testkit.Eventually's checks.
func unless(cond bool, format string, args ...any) string {
	if cond {
		return ""
	}
	return fmt.Sprintf(format, args...)
}
