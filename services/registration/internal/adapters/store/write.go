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

// insertOrderParams maps o to its insert.
func insertOrderParams(o domain.Order) db.InsertOrderParams {
	return db.InsertOrderParams{
		ID: o.ID, OrganizerID: o.OrganizerID, EventID: o.EventID, Status: string(o.Status), Source: o.Source,
		HoldID: ptr(o.HoldID), Amount: o.Amount, Currency: o.Currency, PurchaserEmail: ptr(o.PurchaserEmail),
		PurchaserName: ptr(o.PurchaserName), Promocode: ptr(o.Promocode), ExpiresAt: o.ExpiresAt, PaidAt: o.PaidAt,
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, ClientNetwork: ptr(o.ClientNetwork),
	}
}

// insertRegistrationParams maps r to its insert.
func insertRegistrationParams(r domain.Registration) (db.InsertRegistrationParams, error) {
	custom, err := json.Marshal(r.CustomFields)
	if err != nil {
		return db.InsertRegistrationParams{}, err
	}
	sels, err := json.Marshal(r.SupplementSelections)
	if err != nil {
		return db.InsertRegistrationParams{}, err
	}
	var waivers []byte
	if r.WaiversAccepted != nil {
		if waivers, err = json.Marshal(r.WaiversAccepted); err != nil {
			return db.InsertRegistrationParams{}, err
		}
	}
	var guestEmail, guestName *string
	if r.Guest != nil {
		guestEmail, guestName = &r.Guest.Email, &r.Guest.Name
	}
	return db.InsertRegistrationParams{
		ID: r.ID, OrganizerID: r.OrganizerID, EventID: r.EventID, CategoryID: r.CategoryID, CategoryName: r.CategoryName,
		OrderID: r.OrderID, TeamName: r.TeamName, Club: r.Club, Bib: r.Bib, Note: r.Note, CheckedInAt: r.CheckedInAt,
		CustomFields: custom, SupplementIds: r.SupplementIDs, SupplementSelections: sels, WaiversAccepted: waivers,
		PendingParticipants: int32(r.PendingParticipants), //nolint:gosec // bounded by the team size
		CancelledAt:         r.CancelledAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		GuestEmail: guestEmail, GuestName: guestName,
	}, nil
}

// ticketRow is a ticket with the registration and order copies the search reads.
type ticketRow struct {
	t       domain.Ticket
	values  []byte
	keys    []string
	birth   time.Time
	checked bool
}

// ticketRows computes the stored form of r's tickets: custom values are those of the
// athlete's index among the active tickets (cancelled tickets keep the team's values only).
func ticketRows(r domain.Registration) ([]ticketRow, error) {
	rank := map[string]int{}
	for i, t := range r.ActiveTickets() {
		rank[t.ID] = i
	}
	keys := r.SupplementKeys()
	out := make([]ticketRow, len(r.Tickets))
	for i, t := range r.Tickets {
		idx, ok := rank[t.ID]
		if !ok {
			idx = -1
		}
		values, err := json.Marshal(r.CustomValues(idx))
		if err != nil {
			return nil, err
		}
		birth, err := time.Parse(domain.DateLayout, t.Athlete.BirthDate)
		if err != nil {
			return nil, fmt.Errorf("birth date of %s: %w", t.ID, err)
		}
		out[i] = ticketRow{t: t, values: values, keys: keys, birth: birth, checked: len(r.CheckedInAt) > 0}
	}
	return out, nil
}

func insertTicketParams(r domain.Registration, o domain.Order, row ticketRow) db.InsertTicketParams {
	t := row.t
	return db.InsertTicketParams{
		ID: t.ID, AthleteID: t.AthleteID, OrganizerID: r.OrganizerID, RegistrationID: r.ID, OrderID: r.OrderID,
		Position: int32(t.Position), Status: string(t.Status), CancelledAt: t.CancelledAt, //nolint:gosec // small
		Fullname: t.Athlete.Fullname, IDNumber: t.Athlete.IDNumber, Email: t.Athlete.Email, Phone: t.Athlete.Phone,
		Gender: t.Athlete.Gender, BirthDate: row.birth, Age: int32(t.Age), EventID: r.EventID, //nolint:gosec // an age
		CategoryID: r.CategoryID, CategoryName: r.CategoryName, TeamName: r.TeamName, Club: r.Club, Bib: r.Bib,
		CheckedIn: row.checked, ParticipantStatus: r.ParticipantStatus(), OrderStatus: string(o.Status),
		OrderAmount: o.Amount, CustomValues: row.values, SupplementKeys: row.keys, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}

func updateTicketParams(r domain.Registration, row ticketRow) db.UpdateTicketParams {
	t := row.t
	return db.UpdateTicketParams{
		ID: t.ID, Position: int32(t.Position), Status: string(t.Status), CancelledAt: t.CancelledAt, //nolint:gosec // small
		Fullname: t.Athlete.Fullname, IDNumber: t.Athlete.IDNumber, Email: t.Athlete.Email, Phone: t.Athlete.Phone,
		Gender: t.Athlete.Gender, BirthDate: row.birth, Age: int32(t.Age), CategoryID: r.CategoryID, //nolint:gosec // an age
		CategoryName: r.CategoryName, TeamName: r.TeamName, Club: r.Club, Bib: r.Bib, CheckedIn: row.checked,
		ParticipantStatus: r.ParticipantStatus(), CustomValues: row.values, SupplementKeys: row.keys, UpdatedAt: t.UpdatedAt,
	}
}

// insertAll inserts o, regs and their tickets in one round trip.
func insertAll(ctx context.Context, tx pgx.Tx, o domain.Order, regs []domain.Registration) error {
	b := &pgx.Batch{}
	if err := queueInserts(ctx, b, o, regs); err != nil {
		return err
	}
	return sendBatch(ctx, tx, b)
}

// queueInserts queues the inserts of o, regs and their tickets into b.
func queueInserts(ctx context.Context, b *pgx.Batch, o domain.Order, regs []domain.Registration) error {
	q := db.New(&queue{b: b})
	_ = q.InsertOrder(ctx, insertOrderParams(o))
	for _, r := range regs {
		p, err := insertRegistrationParams(r)
		if err != nil {
			return err
		}
		_ = q.InsertRegistration(ctx, p)
		rows, err := ticketRows(r)
		if err != nil {
			return err
		}
		for _, row := range rows {
			_ = q.InsertTicket(ctx, insertTicketParams(r, o, row))
		}
	}
	return nil
}
