package store

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// UnsettledCheckouts returns, in one query, the checkouts of the ids that their sessions'
// outcome could still move (see app.Repository).
func (r *Repository) UnsettledCheckouts(ctx context.Context, livemode bool, paid, unpaid []string) ([]domain.Checkout, error) {
	rows, err := r.q.UnsettledCheckouts(ctx, db.UnsettledCheckoutsParams{Livemode: livemode, Paid: paid, Unpaid: unpaid})
	if err != nil {
		return nil, fmt.Errorf("unsettled checkouts: %w", err)
	}
	return toCheckouts(rows)
}

// ProcessingCheckouts returns up to limit checkouts awaiting a delayed payment whose ids follow
// after, by id.
func (r *Repository) ProcessingCheckouts(ctx context.Context, livemode bool, after string, limit int) ([]domain.Checkout, error) {
	rows, err := r.q.ProcessingCheckouts(ctx, db.ProcessingCheckoutsParams{Livemode: livemode, After: after, MaxRows: int32(min(limit, math.MaxInt32))}) //nolint:gosec // bounded above
	if err != nil {
		return nil, fmt.Errorf("processing checkouts: %w", err)
	}
	return toCheckouts(rows)
}

// ReconcileMark returns the creation time from which reconciliation of a mode lists
// sessions, zero before any was recorded.
func (r *Repository) ReconcileMark(ctx context.Context, livemode bool) (time.Time, error) {
	mark, err := r.q.ReconcileMark(ctx, livemode)
	if postgres.IsNoRows(err) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("reconcile mark: %w", err)
	}
	return mark.UTC(), nil
}

// SetReconcileMark records the creation time from which reconciliation lists sessions.
func (r *Repository) SetReconcileMark(ctx context.Context, livemode bool, mark time.Time) error {
	if err := r.q.SetReconcileMark(ctx, db.SetReconcileMarkParams{Livemode: livemode, SessionsFrom: mark}); err != nil {
		return fmt.Errorf("set reconcile mark: %w", err)
	}
	return nil
}
