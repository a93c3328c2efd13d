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

// EndpointsToNotify returns up to limit endpoints disabled for failing whose organization was
// not told yet, oldest first.
func (r *Repository) EndpointsToNotify(ctx context.Context, limit int) ([]string, error) {
	return r.q.EndpointsToNotify(ctx, int32(limit)) //nolint:gosec // a constant
}

// NotifyEndpoint locks endpoint id if it still waits for its notice, tells, and marks it
// notified at now in the same transaction; another instance skips the locked row, and a failed
// tell leaves it waiting. It reports whether it told.
func (r *Repository) NotifyEndpoint(ctx context.Context, id string, now time.Time, tell func(context.Context, domain.Endpoint) error) (bool, error) {
	told := false
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		row, err := q.LockEndpointToNotify(ctx, id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := tell(ctx, toEndpoint(row)); err != nil {
			return err
		}
		told = true
		return q.MarkNotified(ctx, db.MarkNotifiedParams{ID: row.ID, NotifiedAt: &now})
	})
	return told && err == nil, err
}
