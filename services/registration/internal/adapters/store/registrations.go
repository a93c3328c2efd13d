package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// ticketOf returns the ticket within s, or not found.
func ticketOf(ctx context.Context, q *db.Queries, s domain.Scope, ticketID string) (db.GetTicketRow, error) {
	t, err := q.GetTicket(ctx, ticketID)
	if pg.IsNoRows(err) || err == nil && (s.OrganizerID == "" || !s.Sees(t.OrganizerID, t.Livemode)) {
		return db.GetTicketRow{}, domain.NotFound("ticket", ticketID)
	}
	if err != nil {
		return db.GetTicketRow{}, fmt.Errorf("get ticket: %w", err)
	}
	return t, nil
}

// load returns a registration with its tickets and order; lock takes row locks on the order
// and then the registration (the order every writer uses).
func load(ctx context.Context, q *db.Queries, s domain.Scope, ticketID string, lock bool) (domain.Registration, error) {
	t, err := ticketOf(ctx, q, s, ticketID)
	if err != nil {
		return domain.Registration{}, err
	}
	row, err := q.GetRegistration(ctx, t.RegistrationID)
	if err != nil {
		return domain.Registration{}, fmt.Errorf("get registration: %w", err)
	}
	var o db.Order
	if lock {
		if o, err = q.GetOrderForUpdate(ctx, row.OrderID); err == nil {
			row, err = q.GetRegistrationForUpdate(ctx, row.ID)
		}
	} else {
		o, err = q.GetOrder(ctx, row.OrderID)
	}
	if err != nil {
		return domain.Registration{}, fmt.Errorf("load registration: %w", err)
	}
	reg, err := toRegistration(row)
	if err != nil {
		return domain.Registration{}, err
	}
	regs := []domain.Registration{reg}
	if err := attachTickets(ctx, q, regs, []string{reg.ID}); err != nil {
		return domain.Registration{}, err
	}
	order := toOrder(o)
	regs[0].Order = &order
	return regs[0], nil
}

// Registration returns the registration holding ticketID.
func (r *Repository) Registration(ctx context.Context, s domain.Scope, ticketID string) (domain.Registration, error) {
	return load(ctx, r.q, s, ticketID, false)
}

// UpdateRegistration stores the planned change of the registration holding ticketID: the
// registration row, every ticket row (new ones inserted), the places of a category move
// (taken in the new category under its quota, freed in the old one, in the same
// transaction) and the e-mail change confirmation.
func (r *Repository) UpdateRegistration(ctx context.Context, s domain.Scope, ticketID string, plan func(domain.Registration) (domain.UpdatePlan, error), quota func(string) *int) (domain.Registration, error) {
	var out domain.Registration
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		cur, err := load(ctx, q, s, ticketID, true)
		if err != nil {
			return err
		}
		p, err := plan(cur)
		if err != nil {
			return err
		}
		next := p.Registration
		if err := storeUpdate(ctx, tx, *cur.Order, next, p.NewTickets); err != nil {
			return translate(err, next.Bib)
		}
		if p.MovedFrom != "" && cur.Order.HoldsPlaces() {
			one := placeDeltas([]domain.Registration{next}, cur.Order.Status, 1)[0]
			one.Check, one.Quota = true, quota(next.CategoryID)
			old := placeDeltas([]domain.Registration{cur}, cur.Order.Status, -1)[0]
			if err := applyPlaces(ctx, tx, q, []domain.PlaceDelta{one, old}, next.UpdatedAt); err != nil {
				return err
			}
		}
		if cur.Order.Status == domain.OrderCompleted {
			if err := enqueue(ctx, tx, registrationEvents(domain.EventRegUpdated, []domain.Registration{next}, next.UpdatedAt)...); err != nil {
				return err
			}
		}
		if p.EmailChangedTo != "" {
			if err := queueMail(ctx, q, domain.EmailChangeMail(next, p.EmailChangedTo), next.UpdatedAt); err != nil {
				return err
			}
		}
		out = next
		return nil
	})
	if err != nil {
		return domain.Registration{}, fmt.Errorf("update registration: %w", err)
	}
	return out, nil
}

// storeUpdate writes the registration row and its tickets (new ones inserted) in one batch.
func storeUpdate(ctx context.Context, tx pgx.Tx, o domain.Order, next domain.Registration, added []int) error {
	custom, err := json.Marshal(nonNil(next.CustomFields))
	if err != nil {
		return err
	}
	sels, err := json.Marshal(nonNil(next.SupplementSelections))
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	q := db.New(&queue{b: b})
	_ = q.UpdateRegistration(ctx, db.UpdateRegistrationParams{
		ID: next.ID, CategoryID: next.CategoryID, CategoryName: next.CategoryName, TeamName: next.TeamName,
		Club: next.Club, Bib: next.Bib, Note: next.Note, CheckedInAt: nonNil(next.CheckedInAt), CustomFields: custom,
		SupplementIds: nonNil(next.SupplementIDs), SupplementSelections: sels,
		PendingParticipants: int32(next.PendingParticipants), UpdatedAt: next.UpdatedAt, //nolint:gosec // bounded by the team size
	})
	isNew := map[int]bool{}
	for _, i := range added {
		isNew[i] = true
	}
	copies, err := ticketCopies(next)
	if err != nil {
		return err
	}
	in := newInserts(len(added))
	for i, c := range copies {
		if isNew[i] {
			if err := ticketColumns(in.tickets, next, o, c); err != nil {
				return err
			}
			continue
		}
		p, err := updateTicketParams(next, c)
		if err != nil {
			return err
		}
		_ = q.UpdateTicket(ctx, p)
	}
	in.queue(ctx, q)
	return sendBatch(ctx, tx, b)
}

// DeleteRegistration applies domain.DecideDelete to the registration holding ticketID.
func (r *Repository) DeleteRegistration(ctx context.Context, s domain.Scope, ticketID string, now time.Time) (domain.DeleteResult, error) {
	if d, err := r.q.GetDeletedTicket(ctx, db.GetDeletedTicketParams{ID: ticketID, OrganizerID: s.OrganizerID, Livemode: s.Livemode}); err == nil {
		return domain.DeleteResult{TicketID: d.ID, RegistrationID: d.RegistrationID, Result: domain.ResultDeleted}, nil
	}
	var res domain.DeleteResult
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		reg, err := load(ctx, q, s, ticketID, true)
		if err != nil {
			return err
		}
		var ticket domain.Ticket
		for _, t := range reg.Tickets {
			if t.ID == ticketID {
				ticket = t
			}
		}
		o := *reg.Order
		res = domain.DeleteResult{TicketID: ticketID, RegistrationID: reg.ID}
		switch domain.DecideDelete(o.Status, ticket.Status) {
		case domain.ActionNone:
			res.Result, res.TicketState, res.CancelledAt = domain.ResultCancelled, ticket.Status, ticket.CancelledAt
			return nil
		case domain.ActionCancel:
			res.Result, res.TicketState, res.CancelledAt = domain.ResultCancelled, domain.TicketCancelled, &now
			if err := cancelRegistration(ctx, tx, q, o, reg, now); err != nil {
				return err
			}
			return announceCancelled(ctx, tx, q, s, ticketID, now)
		}
		res.Result = domain.ResultDeleted
		return removeRegistration(ctx, tx, q, o, reg, now)
	})
	if err != nil {
		return domain.DeleteResult{}, fmt.Errorf("delete registration: %w", err)
	}
	return res, nil
}

// cancelRegistration cancels every ticket of a paid registration and frees its place.
func cancelRegistration(ctx context.Context, tx pgx.Tx, q *db.Queries, o domain.Order, reg domain.Registration, now time.Time) error {
	if !reg.Cancelled() && o.HoldsPlaces() {
		if err := applyPlaces(ctx, tx, q, placeDeltas([]domain.Registration{reg}, o.Status, -1), now); err != nil {
			return err
		}
	}
	if err := q.SetRegistrationCancelled(ctx, db.SetRegistrationCancelledParams{ID: reg.ID, CancelledAt: &now}); err != nil {
		return err
	}
	return q.SetTicketsCancelledByRegistration(ctx, db.SetTicketsCancelledByRegistrationParams{RegistrationID: reg.ID, CancelledAt: &now})
}

// announceCancelled writes the cancellation event of the registration holding ticketID, as
// its cancellation left it.
func announceCancelled(ctx context.Context, tx pgx.Tx, q *db.Queries, s domain.Scope, ticketID string, now time.Time) error {
	reg, err := load(ctx, q, s, ticketID, false)
	if err != nil {
		return err
	}
	return enqueue(ctx, tx, registrationEvents(domain.EventRegCancelled, []domain.Registration{reg}, now)...)
}

// removeRegistration deletes an unpaid registration, frees its place, remembers its ticket
// ids, and cancels its order when it was the order's last registration.
func removeRegistration(ctx context.Context, tx pgx.Tx, q *db.Queries, o domain.Order, reg domain.Registration, now time.Time) error {
	if !reg.Cancelled() && o.HoldsPlaces() {
		if err := applyPlaces(ctx, tx, q, placeDeltas([]domain.Registration{reg}, o.Status, -1), now); err != nil {
			return err
		}
	}
	ids := make([]string, len(reg.Tickets))
	for i, t := range reg.Tickets {
		ids[i] = t.ID
	}
	if err := q.InsertDeletedTickets(ctx, db.InsertDeletedTicketsParams{Ids: ids, OrganizerID: reg.OrganizerID, RegistrationID: reg.ID, DeletedAt: now, Livemode: reg.Livemode}); err != nil {
		return err
	}
	if err := q.DeleteRegistration(ctx, reg.ID); err != nil {
		return err
	}
	left, err := q.CountRegistrationsOfOrder(ctx, o.ID)
	if err != nil || left > 0 || o.Status != domain.OrderPending {
		return err
	}
	o.Status, o.ReleasedAt, o.ReleaseReason, o.UpdatedAt = domain.OrderCancelled, &now, domain.ReleaseCancelled, now
	if err := setOrderState(ctx, q, o); err != nil {
		return err
	}
	return enqueue(ctx, tx, orderEvent(o, domain.EventOrderReleased, domain.NewOrderReleasedEvent(o, nil, domain.ReleaseCancelled, now)))
}
