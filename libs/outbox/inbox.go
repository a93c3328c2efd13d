package outbox

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Once runs apply in a transaction unless consumer already processed messageID, recording the
// id in the same transaction. It reports whether apply ran.
func Once(ctx context.Context, pool *pgxpool.Pool, consumer, messageID string, apply func(pgx.Tx) error) (bool, error) {
	if messageID == "" {
		return false, fmt.Errorf("outbox: inbox %s: message has no id", consumer)
	}
	ran := false
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx,
			`INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, consumer, messageID)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		ran = true
		return apply(tx)
	})
	if err != nil {
		return false, fmt.Errorf("outbox: inbox %s: %w", consumer, err)
	}
	return ran, nil
}

// PruneInbox deletes inbox records older than keep; redeliveries older than that are not
// expected (Kafka redelivers only uncommitted messages).
func PruneInbox(ctx context.Context, pool *pgxpool.Pool, keep time.Duration) (int64, error) {
	tag, err := pool.Exec(ctx, `DELETE FROM inbox WHERE processed_at < now() - make_interval(secs => $1)`, keep.Seconds())
	if err != nil {
		return 0, fmt.Errorf("outbox: prune inbox: %w", err)
	}
	return tag.RowsAffected(), nil
}
