package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// tierSwitchesLock lets one instance announce date-based tier switches at a time.
var tierSwitchesLock = postgres.LockID("catalog", "tier switches")

// tierDateMargin widens the dates searched for tier boundaries past the UTC dates of the
// interval: a date's 00:00 in any time zone is within a day of its 00:00 UTC.
const tierDateMargin = 2

// SwitchTiers announces the date-based tier switches since the mark, unless another instance
// is doing so (then it returns at once). In one transaction it reads the mark, calls announce
// for every event with a tier whose date window opened or closed after the mark and by now
// (give or take tierDateMargin days: announce compares), with the event's categories and
// places and the mark, enqueues what it returns and moves the mark to now. Its first run only
// sets the mark. It returns how many messages it enqueued.
func (r *Repository) SwitchTiers(ctx context.Context, now time.Time, announce func(e domain.Event, mark time.Time) ([]domain.Message, error)) (int, error) {
	var n int
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if locked, err := q.TryLockXact(ctx, tierSwitchesLock); err != nil || !locked {
			return err
		}
		mark, err := q.TierSwitchMark(ctx)
		switch {
		case postgres.IsNoRows(err):
			return q.SetTierSwitchMark(ctx, now)
		case err != nil:
			return fmt.Errorf("read mark: %w", err)
		case !now.After(mark):
			return nil
		}
		ids, err := q.EventsWithTierDatesBetween(ctx, db.EventsWithTierDatesBetweenParams{
			First: utcDate(mark).AddDate(0, 0, -tierDateMargin), Last: utcDate(now).AddDate(0, 0, tierDateMargin),
		})
		if err != nil {
			return fmt.Errorf("events with tier dates: %w", err)
		}
		for _, id := range ids {
			if err := lockPricing(ctx, q, id); err != nil {
				return err
			}
			e, found, err := pricedEvent(ctx, q, id, true)
			if err != nil {
				return err
			}
			if !found {
				continue
			}
			msgs, err := announce(e, mark)
			if err != nil {
				return err
			}
			if err := enqueue(ctx, tx, msgs); err != nil {
				return err
			}
			n += len(msgs)
		}
		return q.SetTierSwitchMark(ctx, now)
	})
	if err != nil {
		return 0, fmt.Errorf("switch tiers: %w", err)
	}
	return n, nil
}

// lockPricing locks the pricing of the event for the transaction.
func lockPricing(ctx context.Context, q *db.Queries, eventID string) error {
	if err := q.LockEventPricing(ctx, postgres.LockID("catalog", "pricing", eventID)); err != nil {
		return fmt.Errorf("lock pricing: %w", err)
	}
	return nil
}

// pricedEvent reads an event with its categories, their tiers and places of the mode, and
// nothing else; found is false when there is no such event.
func pricedEvent(ctx context.Context, q *db.Queries, id string, livemode bool) (e domain.Event, found bool, err error) {
	row, err := q.GetEventByID(ctx, id)
	if postgres.IsNoRows(err) {
		return domain.Event{}, false, nil
	}
	if err != nil {
		return domain.Event{}, false, fmt.Errorf("get event: %w", err)
	}
	e = toEvent(db.GetEventRow(row))
	if err := loadCategories(ctx, q, &e, livemode); err != nil {
		return domain.Event{}, false, err
	}
	return e, true, nil
}

// enqueue writes msgs to the outbox in tx.
func enqueue(ctx context.Context, tx pgx.Tx, msgs []domain.Message) error {
	for _, m := range msgs {
		if _, err := outbox.Enqueue(ctx, tx, outbox.Event{Topic: m.Topic, Key: m.Key, Type: m.Type, Source: domain.EventSource, Data: m.Data}); err != nil {
			return err
		}
	}
	return nil
}

func utcDate(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
