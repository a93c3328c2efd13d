package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/fault"
	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// lockHoldID takes the advisory transaction lock of an organizer's hold id (in one mode), which
// a hold and the release of its id both take first: whichever runs second sees what the first did.
func lockHoldID(ctx context.Context, q *db.Queries, s domain.Scope, holdID string) error {
	if err := q.LockHoldSubject(ctx, pg.LockID("holds", "id", s.OrganizerID, modeName(s.Livemode), holdID)); err != nil {
		return fmt.Errorf("lock hold id: %w", err)
	}
	return nil
}

// refuseReleasedHold locks the hold id of a new hold and refuses it with a
// conflict (reason HOLD_RELEASED) when the id was released already: its caller
// gave up on it, so holding places for it would keep them from everyone until it lapsed.
func refuseReleasedHold(ctx context.Context, q *db.Queries, s domain.Scope, holdID string) error {
	if err := lockHoldID(ctx, q, s, holdID); err != nil {
		return err
	}
	released, err := q.HoldReleased(ctx, db.HoldReleasedParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, HoldID: holdID})
	if err != nil {
		return fmt.Errorf("hold released: %w", err)
	}
	if released {
		return fault.NewConflict(fmt.Sprintf("hold %s was released; hold again with a new holdId", holdID)).WithCode(domain.CodeHoldReleased)
	}
	return nil
}

// ReleaseHoldByID releases the order of a hold id, if one was made; see app.Repository.
func (r *Repository) ReleaseHoldByID(ctx context.Context, s domain.Scope, holdID, reason string, now time.Time) (domain.Order, bool, error) {
	var (
		o     domain.Order
		found bool
	)
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := lockHoldID(ctx, q, s, holdID); err != nil {
			return err
		}
		if err := q.InsertReleasedHold(ctx, db.InsertReleasedHoldParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, HoldID: holdID, ReleasedAt: now}); err != nil {
			return fmt.Errorf("record released hold: %w", err)
		}
		row, err := q.GetOrderByHold(ctx, db.GetOrderByHoldParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, HoldID: &holdID})
		if pg.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("order by hold: %w", err)
		}
		found = true
		if o, err = lockOrder(ctx, q, s, row.ID); err != nil {
			return err
		}
		return r.releaseLocked(ctx, tx, q, &o, reason, now)
	})
	if err != nil {
		return domain.Order{}, false, fmt.Errorf("release hold %s: %w", holdID, err)
	}
	return o, found, nil
}

// PruneReleasedHolds forgets hold ids released before; see app.Repository.
func (r *Repository) PruneReleasedHolds(ctx context.Context, before time.Time) (int64, error) {
	n, err := r.q.PruneReleasedHolds(ctx, before)
	if err != nil {
		return 0, fmt.Errorf("prune released holds: %w", err)
	}
	return n, nil
}
