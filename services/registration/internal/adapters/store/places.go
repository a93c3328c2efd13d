package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/outbox"
	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// applyPlaces changes the ledger by deltas, in category id order (so concurrent transactions
// lock ledger rows in one order and cannot deadlock; deltas of one category in their order),
// and writes one places event per event of the changed categories. Checked deltas take places
// only if the quota allows; otherwise nothing of the transaction is kept and a quota error
// names the category.
func applyPlaces(ctx context.Context, tx pgx.Tx, q *db.Queries, deltas []domain.PlaceDelta, now time.Time) error {
	sort.SliceStable(deltas, func(i, j int) bool { return deltas[i].CategoryID < deltas[j].CategoryID })
	var changed []category
	for _, d := range deltas {
		if d.Confirmed == 0 && d.Held == 0 {
			continue
		}
		if d.Check {
			_, err := q.TakePlaces(ctx, db.TakePlacesParams{
				CategoryID: d.CategoryID, Livemode: d.Livemode, EventID: d.EventID, Confirmed: int32(d.Confirmed), Held: int32(d.Held), //nolint:gosec // small
				Quota: quota32(d.Quota),
			})
			if pg.IsNoRows(err) {
				return quotaError(ctx, q, d)
			}
			if err != nil {
				return fmt.Errorf("take places: %w", err)
			}
		} else {
			_, err := q.ShiftPlaces(ctx, db.ShiftPlacesParams{
				CategoryID: d.CategoryID, Livemode: d.Livemode, EventID: d.EventID, Confirmed: int32(d.Confirmed), Held: int32(d.Held), //nolint:gosec // small
			})
			if err != nil {
				return fmt.Errorf("shift places: %w", err)
			}
		}
		changed = append(changed, category{id: d.CategoryID, event: d.EventID, livemode: d.Livemode})
	}
	return announce(ctx, tx, changed, now)
}

// announce writes the places events of the changed categories (one message per event, with
// the counts the transaction leaves) and wakes the relay, in one round trip.
func announce(ctx context.Context, tx pgx.Tx, changed []category, now time.Time) error {
	if len(changed) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	if err := queueAnnounce(ctx, &queue{b: b}, changed, now); err != nil {
		return err
	}
	return sendBatch(ctx, tx, b)
}

// category is a category's ledger row (of one mode) that a transaction changed, with its event.
type category struct {
	id, event string
	livemode  bool
}

// placesMessage is an element of AnnouncePlaces' messages.
type placesMessage struct {
	EventID  string          `json:"event_id"`
	Livemode bool            `json:"livemode"`
	Headers  json.RawMessage `json:"headers"`
}

// placesKey is an element of the keys of GetPlacesMany and AnnouncePlaces.
type placesKey struct {
	CategoryID string `json:"category_id"`
	Livemode   bool   `json:"livemode"`
}

// queueAnnounce queues the statements of announce into qu's batch.
func queueAnnounce(ctx context.Context, qu *queue, changed []category, now time.Time) error {
	var msgs []placesMessage
	type eventMode struct {
		event    string
		livemode bool
	}
	seen := map[eventMode]bool{}
	keys := make([]placesKey, 0, len(changed))
	for _, c := range changed {
		keys = append(keys, placesKey{CategoryID: c.id, Livemode: c.livemode})
		if seen[eventMode{c.event, c.livemode}] {
			continue
		}
		seen[eventMode{c.event, c.livemode}] = true
		m := outbox.Prepare(ctx, domain.PlacesTopic, c.event, domain.EventPlacesChanged, domain.EventSource)
		msgs = append(msgs, placesMessage{EventID: c.event, Livemode: c.livemode, Headers: m.Headers})
	}
	messages, err := json.Marshal(msgs)
	if err != nil {
		return err
	}
	keysJSON, err := json.Marshal(keys)
	if err != nil {
		return err
	}
	_ = db.New(qu).AnnouncePlaces(ctx, db.AnnouncePlacesParams{
		Topic: domain.PlacesTopic, OccurredAt: now.UTC().Format(time.RFC3339Nano), Messages: messages, Keys: keysJSON,
	})
	_ = outbox.Notify(ctx, qu)
	return nil
}

// quotaError reports how many places the category has left.
func quotaError(ctx context.Context, q *db.Queries, d domain.PlaceDelta) error {
	left := 0
	if d.Quota != nil {
		left = *d.Quota
		if cur, err := q.GetPlaces(ctx, db.GetPlacesParams{CategoryID: d.CategoryID, Livemode: d.Livemode}); err == nil {
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

// placeDeltas counts one place per registration, per category (in the registrations' mode): held places for a PENDING
// order, confirmed ones otherwise, times sign.
func placeDeltas(regs []domain.Registration, status domain.OrderStatus, sign int) []domain.PlaceDelta {
	index := map[string]int{}
	var out []domain.PlaceDelta
	for _, r := range regs {
		i, ok := index[r.CategoryID]
		if !ok {
			i = len(out)
			index[r.CategoryID] = i
			out = append(out, domain.PlaceDelta{CategoryID: r.CategoryID, EventID: r.EventID, Livemode: r.Livemode})
		}
		if status == domain.OrderPending {
			out[i].Held += sign
		} else {
			out[i].Confirmed += sign
		}
	}
	return out
}
