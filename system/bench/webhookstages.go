package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// webhookStages prints where the time of the webhooks delivered so far went, from the
// webhooks database: from the producer's commit (the event's occurredAt) to the message being
// stored by the consumer, and from the delivery being stored to its attempt being recorded.
func webhookStages(ctx context.Context, whPool *pgxpool.Pool, out io.Writer) error {
	const q = `
WITH s AS (
  SELECT extract(epoch FROM m.created_at - m.occurred_at) AS stored,
         extract(epoch FROM d.finished_at - d.created_at) AS delivered, d.attempts
  FROM messages m JOIN deliveries d ON d.message_id = m.id
  WHERE m.type = 'registration.updated' AND d.status = 'succeeded')
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY stored), percentile_cont(0.99) WITHIN GROUP (ORDER BY stored),
       percentile_cont(0.5) WITHIN GROUP (ORDER BY delivered), percentile_cont(0.99) WITHIN GROUP (ORDER BY delivered),
       count(*) FILTER (WHERE attempts > 1), count(*)
FROM s`
	var s50, s99, d50, d99 float64
	var retried, n int
	if err := whPool.QueryRow(ctx, q).Scan(&s50, &s99, &d50, &d99, &retried, &n); err != nil {
		return err
	}
	sec := func(f float64) string { return ms(time.Duration(f * float64(time.Second))) }
	fmt.Fprintf(out, "  where it goes (%d deliveries, %d after more than one attempt): commit to stored by the consumer p50 %s p99 %s; stored to attempt recorded p50 %s p99 %s\n",
		n, retried, sec(s50), sec(s99), sec(d50), sec(d99))
	return nil
}
