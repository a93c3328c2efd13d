package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// NotifyNext locks the oldest endpoint disabled for failing whose organization was not told,
// tells, and marks it notified at now in the same transaction; another instance skips the
// locked row. A failed tell leaves it to the next round.
func (r *Repository) NotifyNext(ctx context.Context, now time.Time, tell func(context.Context, domain.Endpoint) error) (bool, error) {
	found := false
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		row, err := q.ClaimEndpointToNotify(ctx)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if err := tell(ctx, toEndpoint(row)); err != nil {
			return err
		}
		return q.MarkNotified(ctx, db.MarkNotifiedParams{ID: row.ID, NotifiedAt: &now})
	})
	return found, err
}
