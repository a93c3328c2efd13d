package faults

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// brokerOutage is how long the Kafka-protocol broker stays unreachable: 30 s.
const brokerOutage = 30 * time.Second

// TestBrokerUnreachable: the broker is unreachable for 30 s in the middle of the load. Requests
// go on (nothing on a request's path needs the broker), the payments made meanwhile wait in
// checkout's outbox, which drains once the broker is back, and every payment is confirmed
// exactly once (consumers dedupe redeliveries through their inboxes).
func TestBrokerUnreachable(t *testing.T) {
	s := newShop(t, 0)
	l := startLoad(t, s)
	testkit.Eventually(t, time.Minute, func() string { return unless(l.sent() >= 5, "%d purchases paid before the outage, want 5", l.sent()) })
	if err := sys.Cut(stack.KafkaLink); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	testkit.Eventually(t, brokerOutage, func() string {
		return unless(outboxRows(t, "checkout") > 0, "no payment is waiting in checkout's outbox while the broker is unreachable")
	})
	<-time.After(time.Until(cut.Add(brokerOutage)))
	held := outboxRows(t, "checkout") + outboxRows(t, "registration")
	if err := sys.Restore(stack.KafkaLink); err != nil {
		t.Fatal(err)
	}
	after := l.sent()
	testkit.Eventually(t, time.Minute, func() string {
		return unless(l.sent() >= after+5, "%d purchases paid after the broker came back, want 5", l.sent()-after)
	})
	paid := l.stopLoad()
	c := s.settle(t, paid, 2*time.Minute)
	report(t, "broker-down-30s", c, &l.tally)
	testkit.Eventually(t, time.Minute, func() string {
		n := outboxRows(t, "checkout") + outboxRows(t, "registration")
		return unless(n == 0, "%d messages still in the outboxes after the broker came back", n)
	})
	t.Logf("FAULTS %-20s messages held in the outboxes at the end of the outage: %d, all relayed after", "broker-down-30s", held)
}

// outboxRows counts the messages waiting in a service's outbox.
func outboxRows(t *testing.T, svc string) int {
	t.Helper()
	var n int
	if err := scanRow(t.Context(), svc, `SELECT count(*) FROM outbox`, nil, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// scanRow reads one row of a service's own database directly (not through the links a
// scenario breaks) into dest.
func scanRow(ctx context.Context, svc, query string, args []any, dest ...any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, sys.DatabaseURL(svc))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, query, args...).Scan(dest...); err != nil {
		return fmt.Errorf("%s: %w", svc, err)
	}
	return nil
}
