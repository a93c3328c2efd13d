package store

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
)

// Exclusively runs fn while it holds the session-level advisory lock of name on a connection
// of its own, or reports false at once when another session holds it. No transaction stays
// open meanwhile (fn may call Stripe), and the lock ends with the connection if the process
// dies. A connection whose unlock failed is closed rather than returned to the pool with the
// lock.
func (r *Repository) Exclusively(ctx context.Context, name string, fn func(context.Context) error) (bool, error) {
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		return false, fmt.Errorf("exclusively %s: %w", name, err)
	}
	defer conn.Release()
	q, id := db.New(conn), postgres.LockID("exclusively", name)
	locked, err := q.TryLockSession(ctx, id)
	if err != nil {
		return false, fmt.Errorf("exclusively %s: %w", name, err)
	}
	if !locked {
		return false, nil
	}
	defer func() {
		ctx := context.WithoutCancel(ctx)
		if unlocked, err := q.UnlockSession(ctx, id); err != nil || !unlocked {
			_ = conn.Conn().Close(ctx)
		}
	}()
	return true, fn(ctx)
}
