package store

import (
	"context"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Idempotency returns the record of an idempotency key with one primary-key read.
func (r *Repository) Idempotency(ctx context.Context, keyID string, livemode bool, key string) (domain.IdempotencyRecord, bool, error) {
	row, err := r.q.GetIdempotency(ctx, db.GetIdempotencyParams{KeyID: keyID, Livemode: livemode, IdempotencyKey: key})
	if postgres.IsNoRows(err) {
		return domain.IdempotencyRecord{}, false, nil
	}
	if err != nil {
		return domain.IdempotencyRecord{}, false, fmt.Errorf("get idempotency: %w", err)
	}
	return domain.IdempotencyRecord{
		KeyID: row.KeyID, Livemode: row.Livemode, Key: row.IdempotencyKey, RequestHash: row.RequestHash, State: domain.IdempotencyState(row.State),
		CheckoutID: row.CheckoutID, Response: row.Response, LockedUntil: row.LockedUntil, ExpiresAt: row.ExpiresAt,
	}, true, nil
}

// InsertIdempotency stores a RUNNING record unless the key has one.
func (r *Repository) InsertIdempotency(ctx context.Context, rec domain.IdempotencyRecord) (bool, error) {
	n, err := r.q.InsertIdempotency(ctx, db.InsertIdempotencyParams{
		KeyID: rec.KeyID, IdempotencyKey: rec.Key, RequestHash: rec.RequestHash, CheckoutID: rec.CheckoutID,
		LockedUntil: rec.LockedUntil, CreatedAt: time.Now().UTC(), ExpiresAt: rec.ExpiresAt, Livemode: rec.Livemode,
		OrganizerID: nilIfEmpty(rec.OrganizerID),
	})
	if err != nil {
		return false, fmt.Errorf("insert idempotency: %w", err)
	}
	return n == 1, nil
}

// TakeOverIdempotency claims a failed, lapsed or expired record in one conditional UPDATE.
func (r *Repository) TakeOverIdempotency(ctx context.Context, rec domain.IdempotencyRecord, newCheckoutID string, now time.Time) (string, bool, error) {
	id, err := r.q.TakeOverIdempotency(ctx, db.TakeOverIdempotencyParams{
		RequestHash: rec.RequestHash, LockedUntil: rec.LockedUntil, ExpiresAt: rec.ExpiresAt, Now: now,
		NewCheckoutID: newCheckoutID, KeyID: rec.KeyID, Livemode: rec.Livemode, IdempotencyKey: rec.Key,
	})
	if postgres.IsNoRows(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("take over idempotency: %w", err)
	}
	return id, true, nil
}

// FailIdempotency marks the RUNNING record of checkoutID FAILED.
func (r *Repository) FailIdempotency(ctx context.Context, keyID string, livemode bool, key, checkoutID string) error {
	if err := r.q.FailIdempotency(ctx, db.FailIdempotencyParams{KeyID: keyID, IdempotencyKey: key, CheckoutID: checkoutID, Livemode: livemode}); err != nil {
		return fmt.Errorf("fail idempotency: %w", err)
	}
	return nil
}

// DeleteExpiredIdempotency deletes records expired at now.
func (r *Repository) DeleteExpiredIdempotency(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.q.DeleteExpiredIdempotency(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("delete expired idempotency: %w", err)
	}
	return n, nil
}
