package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Orders, registrations and tickets are inserted by one statement per table for any number of
// rows (InsertOrders, InsertRegistrations, InsertTickets): each reads a JSON array of objects
// keyed by column name (json_populate_recordset, see rowsJSON), which costs the database far
// less per row than a statement per row, and carries NULLs, arrays and JSON columns as they are.

// inserts collects the rows of new orders, registrations and tickets.
type inserts struct {
	orders, regs, tickets *rowsJSON
}

// newInserts returns inserts sized for about n orders of one registration and athlete.
func newInserts(n int) *inserts {
	return &inserts{orders: newRowsJSON(400 * n), regs: newRowsJSON(600 * n), tickets: newRowsJSON(900 * n)}
}

// addOrder adds o with regs and all their tickets.
func (in *inserts) addOrder(o domain.Order, regs []domain.Registration) error {
	orderColumns(in.orders, o)
	for _, r := range regs {
		if err := registrationColumns(in.regs, r); err != nil {
			return err
		}
		copies, err := ticketCopies(r)
		if err != nil {
			return err
		}
		for _, c := range copies {
			if err := ticketColumns(in.tickets, r, o, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// queue queues the inserts, parents first, into the batch behind q.
func (in *inserts) queue(ctx context.Context, q *db.Queries) {
	if !in.orders.empty() {
		_ = q.InsertOrders(ctx, in.orders.bytes())
	}
	if !in.regs.empty() {
		_ = q.InsertRegistrations(ctx, in.regs.bytes())
	}
	if !in.tickets.empty() {
		_ = q.InsertTickets(ctx, in.tickets.bytes())
	}
}

func orderColumns(w *rowsJSON, o domain.Order) {
	w.row()
	w.str("id", o.ID)
	w.str("organizer_id", o.OrganizerID)
	w.str("event_id", o.EventID)
	w.str("status", string(o.Status))
	w.str("source", o.Source)
	w.strPtr("hold_id", ptr(o.HoldID))
	w.int("amount", o.Amount)
	w.str("currency", o.Currency)
	w.strPtr("purchaser_email", ptr(o.PurchaserEmail))
	w.strPtr("purchaser_name", ptr(o.PurchaserName))
	w.strPtr("promocode", ptr(o.Promocode))
	w.timePtr("expires_at", o.ExpiresAt)
	w.timePtr("paid_at", o.PaidAt)
	w.time("created_at", o.CreatedAt)
	w.time("updated_at", o.UpdatedAt)
	w.strPtr("client_network", ptr(o.ClientNetwork))
	w.bool("livemode", o.Livemode)
	w.end()
}

func registrationColumns(w *rowsJSON, r domain.Registration) error {
	w.row()
	w.str("id", r.ID)
	w.str("organizer_id", r.OrganizerID)
	w.str("event_id", r.EventID)
	w.str("category_id", r.CategoryID)
	w.str("category_name", r.CategoryName)
	w.str("order_id", r.OrderID)
	w.str("team_name", r.TeamName)
	w.strPtr("club", r.Club)
	w.intPtr("bib", r.Bib)
	w.strPtr("note", r.Note)
	w.times("checked_in_at", r.CheckedInAt)
	if err := w.value("custom_fields", r.CustomFields, len(r.CustomFields) == 0, "[]"); err != nil {
		return err
	}
	w.strs("supplement_ids", r.SupplementIDs)
	if err := w.value("supplement_selections", r.SupplementSelections, len(r.SupplementSelections) == 0, "[]"); err != nil {
		return err
	}
	if r.WaiversAccepted != nil {
		if err := w.value("waivers_accepted", r.WaiversAccepted, false, ""); err != nil {
			return err
		}
	}
	w.int("pending_participants", int64(r.PendingParticipants))
	w.timePtr("cancelled_at", r.CancelledAt)
	w.time("created_at", r.CreatedAt)
	w.time("updated_at", r.UpdatedAt)
	if r.Guest != nil {
		w.str("guest_email", r.Guest.Email)
		w.str("guest_name", r.Guest.Name)
	}
	w.bool("livemode", r.Livemode)
	w.end()
	return nil
}

func ticketColumns(w *rowsJSON, r domain.Registration, o domain.Order, c ticketCopy) error {
	t := c.t
	w.row()
	w.str("id", t.ID)
	w.str("athlete_id", t.AthleteID)
	w.str("organizer_id", r.OrganizerID)
	w.str("registration_id", r.ID)
	w.str("order_id", r.OrderID)
	w.int("position", int64(t.Position))
	w.str("status", string(t.Status))
	w.timePtr("cancelled_at", t.CancelledAt)
	w.str("fullname", t.Athlete.Fullname)
	w.str("id_number", t.Athlete.IDNumber)
	w.str("email", t.Athlete.Email)
	w.str("phone", t.Athlete.Phone)
	w.str("gender", t.Athlete.Gender)
	w.str("birth_date", c.birth.Format(domain.DateLayout))
	w.int("age", int64(t.Age))
	w.str("event_id", r.EventID)
	w.str("category_id", r.CategoryID)
	w.str("category_name", r.CategoryName)
	w.str("team_name", r.TeamName)
	w.strPtr("club", r.Club)
	w.intPtr("bib", r.Bib)
	w.bool("checked_in", c.checked)
	w.str("participant_status", r.ParticipantStatus())
	w.str("order_status", string(o.Status))
	w.int("order_amount", o.Amount)
	if err := w.value("custom_values", c.values, len(c.values) == 0, "{}"); err != nil {
		return err
	}
	w.strs("supplement_keys", c.keys)
	w.time("created_at", t.CreatedAt)
	w.time("updated_at", t.UpdatedAt)
	w.bool("livemode", r.Livemode)
	w.end()
	return nil
}

// nonNil returns s, or an empty slice for nil (the array and JSON columns are NOT NULL).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ticketCopy is a ticket with the registration and order copies the search reads.
type ticketCopy struct {
	t       domain.Ticket
	values  map[string]any
	keys    []string
	birth   time.Time
	checked bool
}

// ticketCopies computes the stored form of r's tickets: custom values are those of the
// athlete's index among the active tickets (cancelled tickets keep the team's values only).
func ticketCopies(r domain.Registration) ([]ticketCopy, error) {
	rank := map[string]int{}
	for i, t := range r.ActiveTickets() {
		rank[t.ID] = i
	}
	keys := nonNil(r.SupplementKeys())
	out := make([]ticketCopy, len(r.Tickets))
	for i, t := range r.Tickets {
		idx, ok := rank[t.ID]
		if !ok {
			idx = -1
		}
		birth, err := time.Parse(domain.DateLayout, t.Athlete.BirthDate)
		if err != nil {
			return nil, fmt.Errorf("birth date of %s: %w", t.ID, err)
		}
		values := r.CustomValues(idx)
		if values == nil {
			values = map[string]any{}
		}
		out[i] = ticketCopy{t: t, values: values, keys: keys, birth: birth, checked: len(r.CheckedInAt) > 0 || t.ScannedAt != nil}
	}
	return out, nil
}

func updateTicketParams(r domain.Registration, c ticketCopy) (db.UpdateTicketParams, error) {
	t := c.t
	values, err := json.Marshal(c.values)
	if err != nil {
		return db.UpdateTicketParams{}, err
	}
	return db.UpdateTicketParams{
		ID: t.ID, Position: int32(t.Position), Status: string(t.Status), CancelledAt: t.CancelledAt, //nolint:gosec // small
		Fullname: t.Athlete.Fullname, IDNumber: t.Athlete.IDNumber, Email: t.Athlete.Email, Phone: t.Athlete.Phone,
		Gender: t.Athlete.Gender, BirthDate: c.birth, Age: int32(t.Age), CategoryID: r.CategoryID, //nolint:gosec // an age
		CategoryName: r.CategoryName, TeamName: r.TeamName, Club: r.Club, Bib: r.Bib, CheckedIn: c.checked,
		ParticipantStatus: r.ParticipantStatus(), CustomValues: values, SupplementKeys: c.keys, UpdatedAt: t.UpdatedAt,
	}, nil
}

// insertAll inserts o, regs and their tickets in one round trip.
func insertAll(ctx context.Context, tx pgx.Tx, o domain.Order, regs []domain.Registration) error {
	in := newInserts(len(regs))
	if err := in.addOrder(o, regs); err != nil {
		return err
	}
	b := &pgx.Batch{}
	in.queue(ctx, db.New(&queue{b: b}))
	return sendBatch(ctx, tx, b)
}
