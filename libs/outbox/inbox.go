package outbox

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Once runs apply in a transaction unless consumer already processed messageID, recording the
// id in the same transaction. It reports whether apply ran.
func Once(ctx context.Context, pool *pgxpool.Pool, consumer, messageID string, apply func(pgx.Tx) error) (bool, error) {
	fresh, err := OnceEach(ctx, pool, consumer, []string{messageID}, func(tx pgx.Tx, _ []string) error { return apply(tx) })
	return len(fresh) > 0, err
}

// OnceEach runs apply in one transaction with those of messageIDs that consumer did not
// process yet, in their order and each once, recording them in the same transaction; it does
// not call apply when there are none. It returns the ids apply was given.
func OnceEach(ctx context.Context, pool *pgxpool.Pool, consumer string, messageIDs []string, apply func(tx pgx.Tx, fresh []string) error) ([]string, error) {
	if slices.Contains(messageIDs, "") {
		return nil, fmt.Errorf("outbox: inbox %s: message has no id", consumer)
	}
	var fresh []string
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `INSERT INTO inbox (consumer, message_id) SELECT $1, unnest($2::text[])
			ON CONFLICT DO NOTHING RETURNING message_id`, consumer, messageIDs)
		if err != nil {
			return err
		}
		inserted, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(inserted) == 0 {
			return err
		}
		fresh = inOrder(messageIDs, inserted)
		return apply(tx, fresh)
	})
	if err != nil {
		return nil, fmt.Errorf("outbox: inbox %s: %w", consumer, err)
	}
	return fresh, nil
}

// inOrder returns the ids of ids that are in set, in ids' order, each once.
func inOrder(ids, set []string) []string {
	left := make(map[string]bool, len(set))
	for _, id := range set {
		left[id] = true
	}
	out := make([]string, 0, len(set))
	for _, id := range ids {
		if left[id] {
			out = append(out, id)
			delete(left, id)
		}
	}
	return out
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
