package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/fault"
	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// CreateOrder stores o with regs and takes their places. Orders go through the combiner (see
// combiner.go); calls inside a transaction run alone.
func (r *Repository) CreateOrder(ctx context.Context, o domain.Order, regs []domain.Registration, quotas map[string]*int) error {
	if r.combine != nil && len(regs) > 0 {
		//nolint:contextcheck // the request carries ctx; the combined transaction runs on a context derived from it
		if err := r.combine.submit(&createRequest{ctx: ctx, order: o, regs: regs, quotas: quotas}); err != nil {
			return fmt.Errorf("create order: %w", err)
		}
		return nil
	}
	if err := r.createOrder(ctx, o, regs, quotas); err != nil {
		return fmt.Errorf("create order: %w", err)
	}
	return nil
}

// createOrder inserts o, regs and their tickets in one round trip, announces the
// registrations of a COMPLETED order, and takes the places last, so the ledger rows stay
// locked only until the commit.
func (r *Repository) createOrder(ctx context.Context, o domain.Order, regs []domain.Registration, quotas map[string]*int) error {
	deltas := placeDeltas(regs, o.Status, 1)
	for i := range deltas {
		deltas[i].Check, deltas[i].Quota = true, quotas[deltas[i].CategoryID]
	}
	return r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := insertAll(ctx, tx, o, regs); err != nil {
			var bib *int64
			if len(regs) == 1 {
				bib = regs[0].Bib
			}
			return translate(err, bib)
		}
		if err := enqueue(ctx, tx, createdEvents(o, regs)...); err != nil {
			return err
		}
		return applyPlaces(ctx, tx, q, deltas, o.CreatedAt)
	})
}

// OrderByHold returns the order of a checkout hold id with its registrations.
func (r *Repository) OrderByHold(ctx context.Context, s domain.Scope, holdID string) (domain.Order, []domain.Registration, error) {
	row, err := r.q.GetOrderByHold(ctx, db.GetOrderByHoldParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, HoldID: &holdID})
	if pg.IsNoRows(err) {
		return domain.Order{}, nil, domain.NotFound("hold", holdID)
	}
	if err != nil {
		return domain.Order{}, nil, fmt.Errorf("order by hold: %w", err)
	}
	regs, err := r.loadRegistrations(ctx, r.q, row.ID)
	if err != nil {
		return domain.Order{}, nil, err
	}
	return toOrder(row), regs, nil
}

// loadRegistrations returns the registrations of an order with their tickets.
func (r *Repository) loadRegistrations(ctx context.Context, q *db.Queries, orderID string) ([]domain.Registration, error) {
	rows, err := q.RegistrationsByOrder(ctx, orderID)
	if err != nil {
		return nil, fmt.Errorf("registrations of order: %w", err)
	}
	out := make([]domain.Registration, len(rows))
	ids := make([]string, len(rows))
	for i, row := range rows {
		if out[i], err = toRegistration(row); err != nil {
			return nil, err
		}
		ids[i] = row.ID
	}
	return out, attachTickets(ctx, q, out, ids)
}

// attachTickets loads the tickets of regs (whose ids are ids).
func attachTickets(ctx context.Context, q *db.Queries, regs []domain.Registration, ids []string) error {
	tickets, err := q.TicketsByRegistrations(ctx, ids)
	if err != nil {
		return fmt.Errorf("tickets: %w", err)
	}
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
	}
	for _, t := range tickets {
		i := index[t.RegistrationID]
		ticket, err := toTicket(t)
		if err != nil {
			return err
		}
		regs[i].Tickets = append(regs[i].Tickets, ticket)
	}
	return nil
}

// lockOrder locks an order within s.
func lockOrder(ctx context.Context, q *db.Queries, s domain.Scope, orderID string) (domain.Order, error) {
	row, err := q.GetOrderForUpdate(ctx, orderID)
	if pg.IsNoRows(err) || err == nil && !s.Sees(row.OrganizerID, row.Livemode) {
		return domain.Order{}, domain.NotFound("order", orderID)
	}
	if err != nil {
		return domain.Order{}, fmt.Errorf("lock order: %w", err)
	}
	return toOrder(row), nil
}

func setOrderState(ctx context.Context, q *db.Queries, o domain.Order) error {
	err := q.SetOrderState(ctx, db.SetOrderStateParams{
		ID: o.ID, Status: string(o.Status), PaymentRef: ptr(o.PaymentRef), AmountPaid: o.AmountPaid, PaidAt: o.PaidAt,
		ReleasedAt: o.ReleasedAt, ReleaseReason: ptr(o.ReleaseReason), UpdatedAt: o.UpdatedAt,
	})
	if err != nil {
		return fmt.Errorf("set order state: %w", err)
	}
	return q.SetTicketsOrderStatus(ctx, db.SetTicketsOrderStatusParams{OrderID: o.ID, OrderStatus: string(o.Status)})
}

// liveRegistrations are the registrations that hold places (not cancelled).
func liveRegistrations(regs []domain.Registration) []domain.Registration {
	var out []domain.Registration
	for _, r := range regs {
		if !r.Cancelled() {
			out = append(out, r)
		}
	}
	return out
}

// ConfirmOrder confirms an order after payment; see app.Repository. Its completion and the
// creation of each of its registrations are announced in the transaction.
func (r *Repository) ConfirmOrder(ctx context.Context, s domain.Scope, orderID, paymentRef string, amountPaid *int64, now time.Time) (domain.Order, []domain.Registration, error) {
	var o domain.Order
	var regs []domain.Registration
	unfulfillable := false
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		var err error
		if o, err = lockOrder(ctx, q, s, orderID); err != nil {
			return err
		}
		if regs, err = r.loadRegistrations(ctx, q, orderID); err != nil {
			return err
		}
		switch o.Status {
		case domain.OrderCompleted, domain.OrderRefunded:
			return nil
		case domain.OrderPending:
			live := liveRegistrations(regs)
			deltas := placeDeltas(live, domain.OrderPending, -1)
			for i := range deltas {
				deltas[i].Confirmed = -deltas[i].Held
			}
			if err := applyPlaces(ctx, tx, q, deltas, now); err != nil {
				return err
			}
		default: // the hold lapsed: take the places again if the quota still allows
			ok, err := r.retake(ctx, tx, q, regs, o, now)
			if err != nil {
				return err
			}
			if !ok {
				unfulfillable = true
				o.Status, o.PaymentRef, o.AmountPaid, o.UpdatedAt = domain.OrderFailed, paymentRef, amountPaid, now
				if err := setOrderState(ctx, q, o); err != nil {
					return err
				}
				return enqueue(ctx, tx, orderEvent(o, domain.EventOrderUnfulfilled,
					domain.OrderUnfulfillableEvent{OrderID: o.ID, Reason: domain.ReasonNoPlaceLeft, PaymentRef: paymentRef}))
			}
		}
		o.Status, o.PaymentRef, o.AmountPaid, o.PaidAt, o.UpdatedAt = domain.OrderCompleted, paymentRef, amountPaid, &now, now
		if err := setOrderState(ctx, q, o); err != nil {
			return err
		}
		if regs, err = r.loadRegistrations(ctx, q, orderID); err != nil {
			return err
		}
		regs = withOrder(regs, o)
		return enqueue(ctx, tx, append(registrationEvents(domain.EventRegCreated, regs, now),
			orderEvent(o, domain.EventOrderCompleted, domain.NewOrderCompletedEvent(o, regs, now)))...)
	})
	if err != nil {
		return domain.Order{}, nil, fmt.Errorf("confirm order: %w", err)
	}
	if unfulfillable {
		return o, regs, fault.NewConflict(fmt.Sprintf("order %s was paid after its hold lapsed and no place is left", o.ID)).WithCode(domain.CodeQuotaExhausted)
	}
	return o, regs, nil
}

// retake confirms the places of a released order again, all or none (a savepoint), and
// reactivates the registrations and tickets its release cancelled.
func (r *Repository) retake(ctx context.Context, tx pgx.Tx, q *db.Queries, regs []domain.Registration, o domain.Order, now time.Time) (bool, error) {
	if len(regs) == 0 {
		return false, nil
	}
	errNoPlace := errors.New("no place")
	err := pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error {
		sq := db.New(sp)
		deltas := placeDeltas(regs, domain.OrderCompleted, 1)
		sortDeltas(deltas)
		changed := make([]category, 0, len(deltas))
		for _, d := range deltas {
			row, err := sq.RetakePlaces(ctx, db.RetakePlacesParams{CategoryID: d.CategoryID, Livemode: d.Livemode, Confirmed: int32(d.Confirmed)}) //nolint:gosec // small
			if pg.IsNoRows(err) {
				return errNoPlace
			}
			if err != nil {
				return fmt.Errorf("retake places: %w", err)
			}
			changed = append(changed, category{id: row.CategoryID, event: row.EventID, livemode: d.Livemode})
		}
		if err := announce(ctx, sp, changed, now); err != nil {
			return err
		}
		if err := sq.SetRegistrationsCancelled(ctx, db.SetRegistrationsCancelledParams{OrderID: o.ID, CancelledAt: nil, UpdatedAt: now}); err != nil {
			return err
		}
		if o.ReleasedAt == nil {
			return nil
		}
		return sq.ReactivateTicketsByOrder(ctx, db.ReactivateTicketsByOrderParams{OrderID: o.ID, UpdatedAt: now, OrderStatus: string(domain.OrderCompleted), CancelledAt: o.ReleasedAt})
	})
	if errors.Is(err, errNoPlace) {
		return false, nil
	}
	return err == nil, err
}

// ExpiredHolds returns PENDING orders whose expiry passed, with their modes.
func (r *Repository) ExpiredHolds(ctx context.Context, now time.Time, limit int) ([]domain.ExpiredHold, error) {
	rows, err := r.q.ExpiredHolds(ctx, db.ExpiredHoldsParams{Now: now, MaxRows: int32(limit)}) //nolint:gosec // small
	if err != nil {
		return nil, fmt.Errorf("expired holds: %w", err)
	}
	out := make([]domain.ExpiredHold, len(rows))
	for i, row := range rows {
		out[i] = domain.ExpiredHold{OrderID: row.ID, Livemode: row.Livemode}
	}
	return out, nil
}

func sortDeltas(d []domain.PlaceDelta) {
	for i := 1; i < len(d); i++ {
		for j := i; j > 0 && d[j].CategoryID < d[j-1].CategoryID; j-- {
			d[j], d[j-1] = d[j-1], d[j]
		}
	}
}
