package bench

import (
	"context"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/jackc/pgx/v5/pgxpool"
)

// serialCommits commits one single-row insert per transaction, one after the other, for d on
// pool's database (in a table of its own, dropped after) and returns their latencies: the
// ceiling of a consumer that stores each message in a transaction of its own, in turn.
func serialCommits(ctx context.Context, pool *pgxpool.Pool, d time.Duration) (*hdrhistogram.Histogram, error) {
	if _, err := pool.Exec(ctx, "CREATE TABLE bench_serial_commits (n int)"); err != nil {
		return nil, err
	}
	defer func() { _, _ = pool.Exec(context.WithoutCancel(ctx), "DROP TABLE bench_serial_commits") }()
	lat := newHistogram()
	for n, end := 0, time.Now().Add(d); time.Now().Before(end); n++ {
		start := time.Now()
		if _, err := pool.Exec(ctx, "INSERT INTO bench_serial_commits VALUES ($1)", n); err != nil {
			return nil, err
		}
		_ = lat.RecordValue(int64(time.Since(start)))
	}
	return lat, nil
}
