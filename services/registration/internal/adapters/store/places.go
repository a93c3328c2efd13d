package store

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// applyPlaces changes the ledger by deltas, in category id order (so concurrent transactions
// lock ledger rows in one order and cannot deadlock; deltas of one category in their order),
// and writes one places event per delta. Checked deltas take places only if the quota allows; otherwise nothing of the
// transaction is kept and a quota error names the category.
func applyPlaces(ctx context.Context, tx pgx.Tx, q *db.Queries, deltas []domain.PlaceDelta, now time.Time) error {
	sort.SliceStable(deltas, func(i, j int) bool { return deltas[i].CategoryID < deltas[j].CategoryID })
	for _, d := range deltas {
		if d.Confirmed == 0 && d.Held == 0 {
			continue
		}
		var row db.Place
		if d.Check {
			got, err := q.TakePlaces(ctx, db.TakePlacesParams{
				CategoryID: d.CategoryID, EventID: d.EventID, Confirmed: int32(d.Confirmed), Held: int32(d.Held), //nolint:gosec // small
				Quota: quota32(d.Quota),
			})
			if pg.IsNoRows(err) {
				return quotaError(ctx, q, d)
			}
			if err != nil {
				return fmt.Errorf("take places: %w", err)
			}
			row = db.Place{CategoryID: got.CategoryID, EventID: got.EventID, Confirmed: got.Confirmed, Held: got.Held, Version: got.Version}
		} else {
			got, err := q.ShiftPlaces(ctx, db.ShiftPlacesParams{
				CategoryID: d.CategoryID, EventID: d.EventID, Confirmed: int32(d.Confirmed), Held: int32(d.Held), //nolint:gosec // small
			})
			if err != nil {
				return fmt.Errorf("shift places: %w", err)
			}
			row = db.Place{CategoryID: got.CategoryID, EventID: got.EventID, Confirmed: got.Confirmed, Held: got.Held, Version: got.Version}
		}
		if err := enqueuePlaces(ctx, tx, row, now); err != nil {
			return err
		}
	}
	return nil
}

func enqueuePlaces(ctx context.Context, tx pgx.Tx, row db.Place, now time.Time) error {
	return enqueue(ctx, tx, domain.PlacesTopic, row.CategoryID, domain.EventPlacesChanged, domain.PlacesChanged{
		EventID: row.EventID, CategoryID: row.CategoryID, Confirmed: int(row.Confirmed), Held: int(row.Held),
		Version: row.Version, OccurredAt: now,
	})
}

// quotaError reports how many places the category has left.
func quotaError(ctx context.Context, q *db.Queries, d domain.PlaceDelta) error {
	left := 0
	if d.Quota != nil {
		left = *d.Quota
		if cur, err := q.GetPlaces(ctx, d.CategoryID); err == nil {
			left = *d.Quota - int(cur.Confirmed) - int(cur.Held)
		}
	}
	return domain.QuotaError(d.CategoryID, left)
}

func quota32(q *int) *int32 {
	if q == nil {
		return nil
	}
	v := int32(*q) //nolint:gosec // quotas are small
	return &v
}

// placeDeltas counts one place per registration, per category: held places for a PENDING
// order, confirmed ones otherwise, times sign.
func placeDeltas(regs []domain.Registration, status domain.OrderStatus, sign int) []domain.PlaceDelta {
	index := map[string]int{}
	var out []domain.PlaceDelta
	for _, r := range regs {
		i, ok := index[r.CategoryID]
		if !ok {
			i = len(out)
			index[r.CategoryID] = i
			out = append(out, domain.PlaceDelta{CategoryID: r.CategoryID, EventID: r.EventID})
		}
		if status == domain.OrderPending {
			out[i].Held += sign
		} else {
			out[i].Confirmed += sign
		}
	}
	return out
}
