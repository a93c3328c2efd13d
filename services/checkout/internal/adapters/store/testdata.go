package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestCheckout returns the latest test checkout of an organizer with a session id.
func (r *Repository) TestCheckout(ctx context.Context, organizerID, sessionID string) (domain.Checkout, error) {
	row, err := r.q.TestCheckoutOfOrganizer(ctx, db.TestCheckoutOfOrganizerParams{OrganizerID: organizerID, SessionID: &sessionID})
	if postgres.IsNoRows(err) {
		return domain.Checkout{}, domain.ErrCheckoutNotFound
	}
	if err != nil {
		return domain.Checkout{}, fmt.Errorf("test checkout: %w", err)
	}
	return toCheckout(row)
}

// DeleteTestData deletes an organizer's test checkouts, their idempotency records and the
// inbox records of consumer (its test webhooks) in one transaction; live rows are never
// matched. It returns how many checkouts it deleted.
func (r *Repository) DeleteTestData(ctx context.Context, organizerID, consumer string) (int64, error) {
	var n int64
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if _, err := q.DeleteTestIdempotency(ctx, &organizerID); err != nil {
			return fmt.Errorf("idempotency records: %w", err)
		}
		var err error
		if n, err = q.DeleteTestCheckouts(ctx, organizerID); err != nil {
			return fmt.Errorf("checkouts: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM inbox WHERE consumer = $1`, consumer); err != nil {
			return fmt.Errorf("inbox: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("delete test data of %s: %w", organizerID, err)
	}
	return n, nil
}
