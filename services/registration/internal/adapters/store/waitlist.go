package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/outbox"
	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// JoinWaitlist puts w in line, or returns the entry its address already has in line or
// offered in the category; the places are read in the same statement order as a hold's, so
// a join refused for a category with places left holds nothing. A new entry counts against
// its e-mail's limits with the organizer in its mode, whose row the join locks: a join beyond
// them is refused and, as every refusal, rolled back whole.
func (r *Repository) JoinWaitlist(ctx context.Context, w domain.WaitlistEntry, quota int, limits domain.WaitlistLimits) (domain.WaitlistEntry, error) {
	var out domain.WaitlistEntry
	err := r.inTx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		closed, err := q.WaitlistIsClosed(ctx, db.WaitlistIsClosedParams{CategoryID: w.CategoryID, Livemode: w.Livemode})
		if err != nil {
			return fmt.Errorf("waitlist closed: %w", err)
		}
		if closed {
			return domain.WaitlistClosedError(w.CategoryID)
		}
		if left, err := placesLeft(ctx, q, w.CategoryID, w.Livemode, quota); err != nil {
			return err
		} else if left > 0 {
			waiting, err := q.CountWaiting(ctx, db.CountWaitingParams{CategoryID: w.CategoryID, Livemode: w.Livemode})
			if err != nil {
				return fmt.Errorf("count waiting: %w", err)
			}
			if int(waiting) < left {
				return domain.NotSoldOutError(w.CategoryID, left-int(waiting))
			}
		}
		if err := admitJoin(ctx, q, w, limits); err != nil {
			return err
		}
		row, err := q.InsertWaitlistEntry(ctx, db.InsertWaitlistEntryParams{
			ID: w.ID, OrganizerID: w.OrganizerID, Livemode: w.Livemode, EventID: w.EventID, CategoryID: w.CategoryID,
			EventName: w.EventName, CategoryName: w.CategoryName, Email: w.Email, Name: w.Name,
			TeamSize: int32(w.TeamSize), OfferUrl: w.OfferURL, Now: w.CreatedAt, //nolint:gosec // bounded by the schema
		})
		if err != nil {
			return fmt.Errorf("insert waitlist entry: %w", err)
		}
		pos, err := q.WaitlistPosition(ctx, row.ID)
		if err != nil {
			return fmt.Errorf("waitlist position: %w", err)
		}
		out = toEntry(row, int(pos))
		return nil
	})
	if err != nil {
		return domain.WaitlistEntry{}, fmt.Errorf("join waitlist: %w", err)
	}
	return out, nil
}

// admitJoin counts w's join against its e-mail's limits, or refuses it; a join again of a
// category the e-mail waits in counts against nothing (the insert then answers its entry).
func admitJoin(ctx context.Context, q *db.Queries, w domain.WaitlistEntry, limits domain.WaitlistLimits) error {
	if limits == (domain.WaitlistLimits{}) {
		return nil
	}
	key := db.LockEmailJoinsParams{OrganizerID: w.OrganizerID, Livemode: w.Livemode, Email: w.Email, Now: w.CreatedAt}
	row, err := q.LockEmailJoins(ctx, key)
	if err != nil {
		return fmt.Errorf("lock e-mail joins: %w", err)
	}
	if _, err := q.ActiveWaitlistEntry(ctx, db.ActiveWaitlistEntryParams{CategoryID: w.CategoryID, Livemode: w.Livemode, Email: w.Email}); err == nil {
		return nil
	} else if !pg.IsNoRows(err) {
		return fmt.Errorf("active entry: %w", err)
	}
	active, err := q.CountActiveByEmail(ctx, db.CountActiveByEmailParams{OrganizerID: w.OrganizerID, Livemode: w.Livemode, Email: w.Email})
	if err != nil {
		return fmt.Errorf("count active entries: %w", err)
	}
	j, err := limits.Admit(domain.EmailJoins{WindowStart: row.WindowStart, Joins: int(row.Joins)}, int(active), w.CreatedAt)
	if err != nil {
		return err
	}
	if err := q.SetEmailJoins(ctx, db.SetEmailJoinsParams{WindowStart: j.WindowStart, Joins: int32(j.Joins), //nolint:gosec // bounded by the limit
		OrganizerID: w.OrganizerID, Livemode: w.Livemode, Email: w.Email}); err != nil {
		return fmt.Errorf("count e-mail join: %w", err)
	}
	return nil
}

// placesLeft is what the ledger leaves of quota in the category and mode.
func placesLeft(ctx context.Context, q *db.Queries, categoryID string, livemode bool, quota int) (int, error) {
	p, err := q.GetPlaces(ctx, db.GetPlacesParams{CategoryID: categoryID, Livemode: livemode})
	if pg.IsNoRows(err) {
		return quota, nil
	}
	if err != nil {
		return 0, fmt.Errorf("places: %w", err)
	}
	return quota - int(p.Confirmed) - int(p.Held), nil
}

// CategoriesToOffer returns up to limit categories (with their mode) whose ledger has a free
// place while someone waits in their open waitlist.
func (r *Repository) CategoriesToOffer(ctx context.Context, limit int) ([]domain.CategoryMode, error) {
	rows, err := r.q.CategoriesToOffer(ctx, int32(limit)) //nolint:gosec // small
	if err != nil {
		return nil, fmt.Errorf("categories to offer: %w", err)
	}
	out := make([]domain.CategoryMode, len(rows))
	for i, row := range rows {
		out[i] = domain.CategoryMode{CategoryID: row.CategoryID, Livemode: row.Livemode, EventID: row.EventID}
	}
	return out, nil
}

// WaitingCategories returns up to limit categories where someone waits in line, with their
// organizer and event.
func (r *Repository) WaitingCategories(ctx context.Context, limit int) ([]domain.WaitingCategory, error) {
	rows, err := r.q.WaitingCategories(ctx, int32(limit)) //nolint:gosec // small
	if err != nil {
		return nil, fmt.Errorf("waiting categories: %w", err)
	}
	out := make([]domain.WaitingCategory, len(rows))
	for i, row := range rows {
		out[i] = domain.WaitingCategory{OrganizerID: row.OrganizerID,
			CategoryMode: domain.CategoryMode{CategoryID: row.CategoryID, Livemode: row.Livemode, EventID: row.EventID}}
	}
	return out, nil
}

// RaiseQuota tells the ledger a category's quota the catalog raised (a lower one is left to
// the next hold or create, which refuses places past it).
func (r *Repository) RaiseQuota(ctx context.Context, c domain.CategoryMode, quota int) error {
	if err := r.q.RaiseQuota(ctx, db.RaiseQuotaParams{CategoryID: c.CategoryID, Livemode: c.Livemode, Quota: int32(quota)}); err != nil { //nolint:gosec // small
		return fmt.Errorf("raise quota: %w", err)
	}
	return nil
}

// OfferNext offers a free place of the category to the first in line: in one transaction it
// holds the place in the ledger (none free: found false, nothing changed), marks the entry
// OFFERED until expires, queues the offer's mail and writes the places and offered events.
func (r *Repository) OfferNext(ctx context.Context, c domain.CategoryMode, now, expires time.Time) (domain.WaitlistEntry, bool, error) {
	return r.offer(ctx, now, func(q *db.Queries) (db.WaitlistEntry, error) {
		return q.FirstInLine(ctx, db.FirstInLineParams{CategoryID: c.CategoryID, Livemode: c.Livemode})
	}, expires)
}

// OfferEntry offers a free place to the organizer's entry id, out of line: an entry not
// WAITING is a conflict, and so is a category without a free place.
func (r *Repository) OfferEntry(ctx context.Context, s domain.Scope, id string, now, expires time.Time) (domain.WaitlistEntry, error) {
	w, found, err := r.offer(ctx, now, func(q *db.Queries) (db.WaitlistEntry, error) {
		row, err := lockEntry(ctx, q, s, id)
		if err == nil && row.Status != string(domain.WaitlistWaiting) {
			return row, domain.NotWaitingError(id, domain.WaitlistStatus(row.Status))
		}
		return row, err
	}, expires)
	if err == nil && !found {
		err = domain.QuotaError(w.CategoryID, 0)
	}
	return w, err
}

// errNoOffer ends an offer's transaction without changes.
var errNoOffer = errors.New("no entry or no place to offer")

func (r *Repository) offer(ctx context.Context, now time.Time, pick func(*db.Queries) (db.WaitlistEntry, error), expires time.Time) (domain.WaitlistEntry, bool, error) {
	var w domain.WaitlistEntry
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		row, err := pick(q)
		if pg.IsNoRows(err) {
			return errNoOffer
		}
		if err != nil {
			return err
		}
		w = toEntry(row, 0)
		if _, err := q.HoldOfferPlace(ctx, db.HoldOfferPlaceParams{CategoryID: row.CategoryID, Livemode: row.Livemode}); pg.IsNoRows(err) {
			return errNoOffer
		} else if err != nil {
			return fmt.Errorf("hold offer place: %w", err)
		}
		secret, hash := domain.NewOfferSecret()
		if err := q.SetOffered(ctx, db.SetOfferedParams{ID: row.ID, OfferHash: hash, Now: now, ExpiresAt: expires}); err != nil {
			return fmt.Errorf("set offered: %w", err)
		}
		w.Status, w.OfferedAt, w.OfferExpiresAt, w.UpdatedAt = domain.WaitlistOffered, &now, &expires, now
		if err := queueMail(ctx, q, domain.OfferMail(w, secret), now); err != nil {
			return err
		}
		ev := outbox.Event{Topic: domain.WaitlistTopic, Key: w.ID, Type: domain.EventWaitlistOffered, Data: domain.WaitlistOfferedEvent{
			OrganizerID: w.OrganizerID, Livemode: w.Livemode, OccurredAt: now.UTC(), Object: domain.NewWaitlistEntryView(w)}}
		if err := enqueue(ctx, tx, ev); err != nil {
			return err
		}
		return announce(ctx, tx, []category{{id: w.CategoryID, event: w.EventID, livemode: w.Livemode}}, now)
	})
	if errors.Is(err, errNoOffer) {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("offer waitlist place: %w", err)
	}
	return w, true, nil
}

// LapsedOffers returns up to limit offers whose time passed by now, with their modes.
func (r *Repository) LapsedOffers(ctx context.Context, now time.Time, limit int) ([]string, error) {
	rows, err := r.q.LapsedOffers(ctx, db.LapsedOffersParams{Now: now, MaxRows: int32(limit)}) //nolint:gosec // small
	if err != nil {
		return nil, fmt.Errorf("lapsed offers: %w", err)
	}
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = row.ID
	}
	return out, nil
}

// LapseOffer ends an offer whose time passed by now (LAPSED) and frees its place; an offer
// taken or lapsed meanwhile is left as it is.
func (r *Repository) LapseOffer(ctx context.Context, id string, now time.Time) error {
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		row, err := q.WaitlistEntryForUpdate(ctx, id)
		if err != nil {
			return fmt.Errorf("lock entry: %w", err)
		}
		if row.Status != string(domain.WaitlistOffered) || row.OfferExpiresAt == nil || row.OfferExpiresAt.After(now) {
			return nil
		}
		if err := q.SetWaitlistStatus(ctx, db.SetWaitlistStatusParams{ID: id, Status: string(domain.WaitlistLapsed), Now: now}); err != nil {
			return fmt.Errorf("set lapsed: %w", err)
		}
		return applyPlaces(ctx, tx, q, []domain.PlaceDelta{{CategoryID: row.CategoryID, EventID: row.EventID, Livemode: row.Livemode, Held: -1}}, now)
	})
	if err != nil {
		return fmt.Errorf("lapse offer %s: %w", id, err)
	}
	return nil
}

// takeOffer locks the offer with secret for the hold o, checks it is live and for the
// category of the hold's first registration, marks it ACCEPTED by o and returns the ledger
// change that frees its place, for the hold to take it in the same pass.
func takeOffer(ctx context.Context, q *db.Queries, o domain.Order, regs []domain.Registration, secret string) (domain.PlaceDelta, error) {
	row, err := q.OfferForUpdate(ctx, db.OfferForUpdateParams{OfferHash: domain.OfferHash(secret), OrganizerID: o.OrganizerID, Livemode: o.Livemode})
	switch {
	case pg.IsNoRows(err):
		return domain.PlaceDelta{}, domain.OfferNotValidError("is not an offer of this organizer")
	case err != nil:
		return domain.PlaceDelta{}, fmt.Errorf("lock offer: %w", err)
	case row.Status != string(domain.WaitlistOffered):
		return domain.PlaceDelta{}, domain.OfferNotValidError(fmt.Sprintf("was %s: it can be used once, while it lasts", row.Status))
	case row.OfferExpiresAt == nil || !row.OfferExpiresAt.After(o.CreatedAt):
		return domain.PlaceDelta{}, domain.OfferNotValidError("has lapsed")
	case len(regs) == 0 || regs[0].CategoryID != row.CategoryID || row.EventID != o.EventID:
		return domain.PlaceDelta{}, domain.OfferNotValidError("is for category " + row.CategoryID + ": the purchase's registration must be in it")
	}
	orderID := o.ID
	if err := q.SetWaitlistStatus(ctx, db.SetWaitlistStatusParams{ID: row.ID, Status: string(domain.WaitlistAccepted), OrderID: &orderID, Now: o.CreatedAt}); err != nil {
		return domain.PlaceDelta{}, fmt.Errorf("set accepted: %w", err)
	}
	return domain.PlaceDelta{CategoryID: row.CategoryID, EventID: row.EventID, Livemode: row.Livemode, Held: -1}, nil
}

// Waitlist returns a page of the organizer's waitlist of a category, in line order, and its
// size; a category without a waitlist (none joined, never closed) is not found.
func (r *Repository) Waitlist(ctx context.Context, s domain.Scope, categoryID string, p domain.Page) ([]domain.WaitlistEntry, int, error) {
	total, err := r.q.CountWaitlist(ctx, db.CountWaitlistParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, CategoryID: categoryID})
	if err != nil {
		return nil, 0, fmt.Errorf("count waitlist: %w", err)
	}
	if total == 0 {
		if err := r.requireClosed(ctx, s, categoryID); err != nil {
			return nil, 0, err
		}
		return nil, 0, nil
	}
	rows, err := r.q.ListWaitlist(ctx, db.ListWaitlistParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, CategoryID: categoryID,
		MaxRows: int32(p.Limit), Skip: int32(p.Offset)}) //nolint:gosec // bounded by the handler
	if err != nil {
		return nil, 0, fmt.Errorf("list waitlist: %w", err)
	}
	out := make([]domain.WaitlistEntry, len(rows))
	for i, row := range rows {
		out[i] = toEntry(db.WaitlistEntry{ID: row.ID, Seq: row.Seq, OrganizerID: row.OrganizerID, Livemode: row.Livemode, EventID: row.EventID,
			CategoryID: row.CategoryID, EventName: row.EventName, CategoryName: row.CategoryName, Email: row.Email, Name: row.Name,
			TeamSize: row.TeamSize, OfferUrl: row.OfferUrl, Status: row.Status, OfferedAt: row.OfferedAt, OfferExpiresAt: row.OfferExpiresAt,
			OrderID: row.OrderID, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}, int(row.Position))
	}
	return out, int(total), nil
}

// requireClosed is nil when the organizer closed the category's waitlist, not found otherwise.
func (r *Repository) requireClosed(ctx context.Context, s domain.Scope, categoryID string) error {
	organizer, err := r.q.WaitlistClosedBy(ctx, db.WaitlistClosedByParams{CategoryID: categoryID, Livemode: s.Livemode})
	if pg.IsNoRows(err) || err == nil && organizer != s.OrganizerID {
		return domain.NotFound("waitlist of category", categoryID)
	}
	return err
}

// CloseWaitlist closes the organizer's waitlist of a category (c's mode): no one joins
// afterwards, and those in line are CLOSED; live offers keep their places until they lapse.
// It returns how many were in line.
func (r *Repository) CloseWaitlist(ctx context.Context, s domain.Scope, c domain.CategoryMode, now time.Time) (int, error) {
	var closed int64
	err := r.inTx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		if _, err := q.CloseWaitlist(ctx, db.CloseWaitlistParams{CategoryID: c.CategoryID, Livemode: s.Livemode, OrganizerID: s.OrganizerID, ClosedAt: now}); err != nil {
			return fmt.Errorf("close waitlist: %w", err)
		}
		n, err := q.CloseWaitingEntries(ctx, db.CloseWaitingEntriesParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, CategoryID: c.CategoryID, Now: now})
		closed = n
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("close waitlist: %w", err)
	}
	return int(closed), nil
}

// lockEntry locks the entry id within s.
func lockEntry(ctx context.Context, q *db.Queries, s domain.Scope, id string) (db.WaitlistEntry, error) {
	row, err := q.WaitlistEntryForUpdate(ctx, id)
	if pg.IsNoRows(err) || err == nil && !s.Sees(row.OrganizerID, row.Livemode) {
		return db.WaitlistEntry{}, domain.NotFound("waitlist entry", id)
	}
	return row, err
}

func toEntry(row db.WaitlistEntry, position int) domain.WaitlistEntry {
	w := domain.WaitlistEntry{
		ID: row.ID, OrganizerID: row.OrganizerID, Livemode: row.Livemode, EventID: row.EventID, CategoryID: row.CategoryID,
		EventName: row.EventName, CategoryName: row.CategoryName, Email: row.Email, Name: row.Name, TeamSize: int(row.TeamSize),
		OfferURL: row.OfferUrl, Status: domain.WaitlistStatus(row.Status), Position: position,
		OfferedAt: utcPtr(row.OfferedAt), OfferExpiresAt: utcPtr(row.OfferExpiresAt), CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
	if row.OrderID != nil {
		w.OrderID = *row.OrderID
	}
	return w
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// keepLine refuses a hold's new places in a category where people wait in line for fewer
// free places than wait: freed places go to the waitlist first, offered by the waitlist
// worker. It locks each category's ledger row (in category order, as applyPlaces updates them)
// before it counts, so two holds never both take the one place the line leaves; the ledger's
// constraint stays the guard of the quota.
func keepLine(ctx context.Context, q *db.Queries, deltas []domain.PlaceDelta) error {
	deltas = slices.Clone(deltas)
	slices.SortStableFunc(deltas, func(a, b domain.PlaceDelta) int { return strings.Compare(a.CategoryID, b.CategoryID) })
	for _, d := range deltas {
		if !d.Check || d.Held+d.Confirmed <= 0 || d.Quota == nil {
			continue
		}
		row, err := q.PlacesAndLine(ctx, db.PlacesAndLineParams{CategoryID: d.CategoryID, Livemode: d.Livemode})
		if pg.IsNoRows(err) || err == nil && row.Waiting == 0 {
			continue
		}
		if err != nil {
			return fmt.Errorf("waitlist line: %w", err)
		}
		left := *d.Quota - int(row.Confirmed) - int(row.Held) - int(row.Waiting)
		if left < d.Held+d.Confirmed {
			return domain.LineError(d.CategoryID, int(row.Waiting))
		}
	}
	return nil
}
