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
// keyed by column name (json_populate_recordset), which costs the database far less per row
// than a statement per row, and carries NULLs, arrays and JSON columns as they are.

// orderRow is an orders row as InsertOrders reads it.
type orderRow struct {
	ID             string     `json:"id"`
	OrganizerID    string     `json:"organizer_id"`
	EventID        string     `json:"event_id"`
	Status         string     `json:"status"`
	Source         string     `json:"source"`
	HoldID         *string    `json:"hold_id"`
	Amount         int64      `json:"amount"`
	Currency       string     `json:"currency"`
	PurchaserEmail *string    `json:"purchaser_email"`
	PurchaserName  *string    `json:"purchaser_name"`
	Promocode      *string    `json:"promocode"`
	ExpiresAt      *time.Time `json:"expires_at"`
	PaidAt         *time.Time `json:"paid_at"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	ClientNetwork  *string    `json:"client_network"`
}

// registrationRow is a registrations row as InsertRegistrations reads it.
type registrationRow struct {
	ID                   string                       `json:"id"`
	OrganizerID          string                       `json:"organizer_id"`
	EventID              string                       `json:"event_id"`
	CategoryID           string                       `json:"category_id"`
	CategoryName         string                       `json:"category_name"`
	OrderID              string                       `json:"order_id"`
	TeamName             string                       `json:"team_name"`
	Club                 *string                      `json:"club"`
	Bib                  *int64                       `json:"bib"`
	Note                 *string                      `json:"note"`
	CheckedInAt          []time.Time                  `json:"checked_in_at"`
	CustomFields         []domain.CustomFieldValue    `json:"custom_fields"`
	SupplementIDs        []string                     `json:"supplement_ids"`
	SupplementSelections []domain.SupplementSelection `json:"supplement_selections"`
	WaiversAccepted      map[string]bool              `json:"waivers_accepted"`
	PendingParticipants  int                          `json:"pending_participants"`
	CancelledAt          *time.Time                   `json:"cancelled_at"`
	CreatedAt            time.Time                    `json:"created_at"`
	UpdatedAt            time.Time                    `json:"updated_at"`
	GuestEmail           *string                      `json:"guest_email"`
	GuestName            *string                      `json:"guest_name"`
}

// ticketRow is a tickets row as InsertTickets reads it: the athlete's ticket with the copies of
// its registration's and order's searchable fields.
type ticketRow struct {
	ID                string         `json:"id"`
	AthleteID         string         `json:"athlete_id"`
	OrganizerID       string         `json:"organizer_id"`
	RegistrationID    string         `json:"registration_id"`
	OrderID           string         `json:"order_id"`
	Position          int            `json:"position"`
	Status            string         `json:"status"`
	CancelledAt       *time.Time     `json:"cancelled_at"`
	Fullname          string         `json:"fullname"`
	IDNumber          string         `json:"id_number"`
	Email             string         `json:"email"`
	Phone             string         `json:"phone"`
	Gender            string         `json:"gender"`
	BirthDate         string         `json:"birth_date"`
	Age               int            `json:"age"`
	EventID           string         `json:"event_id"`
	CategoryID        string         `json:"category_id"`
	CategoryName      string         `json:"category_name"`
	TeamName          string         `json:"team_name"`
	Club              *string        `json:"club"`
	Bib               *int64         `json:"bib"`
	CheckedIn         bool           `json:"checked_in"`
	ParticipantStatus string         `json:"participant_status"`
	OrderStatus       string         `json:"order_status"`
	OrderAmount       int64          `json:"order_amount"`
	CustomValues      map[string]any `json:"custom_values"`
	SupplementKeys    []string       `json:"supplement_keys"`
	CreatedAt         time.Time      `json:"created_at"`
	UpdatedAt         time.Time      `json:"updated_at"`
}

// inserts collects the rows of new orders, registrations and tickets.
type inserts struct {
	orders  []orderRow
	regs    []registrationRow
	tickets []ticketRow
}

// addOrder adds o with regs and all their tickets.
func (in *inserts) addOrder(o domain.Order, regs []domain.Registration) error {
	in.orders = append(in.orders, newOrderRow(o))
	for _, r := range regs {
		in.regs = append(in.regs, newRegistrationRow(r))
		copies, err := ticketCopies(r)
		if err != nil {
			return err
		}
		for _, c := range copies {
			in.tickets = append(in.tickets, newTicketRow(r, o, c))
		}
	}
	return nil
}

// queue queues the inserts, parents first, into the batch behind q.
func (in *inserts) queue(ctx context.Context, q *db.Queries) error {
	if len(in.orders) > 0 {
		b, err := json.Marshal(in.orders)
		if err != nil {
			return err
		}
		_ = q.InsertOrders(ctx, b)
	}
	if len(in.regs) > 0 {
		b, err := json.Marshal(in.regs)
		if err != nil {
			return err
		}
		_ = q.InsertRegistrations(ctx, b)
	}
	if len(in.tickets) > 0 {
		b, err := json.Marshal(in.tickets)
		if err != nil {
			return err
		}
		_ = q.InsertTickets(ctx, b)
	}
	return nil
}

func newOrderRow(o domain.Order) orderRow {
	return orderRow{
		ID: o.ID, OrganizerID: o.OrganizerID, EventID: o.EventID, Status: string(o.Status), Source: o.Source,
		HoldID: ptr(o.HoldID), Amount: o.Amount, Currency: o.Currency, PurchaserEmail: ptr(o.PurchaserEmail),
		PurchaserName: ptr(o.PurchaserName), Promocode: ptr(o.Promocode), ExpiresAt: o.ExpiresAt, PaidAt: o.PaidAt,
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, ClientNetwork: ptr(o.ClientNetwork),
	}
}

func newRegistrationRow(r domain.Registration) registrationRow {
	row := registrationRow{
		ID: r.ID, OrganizerID: r.OrganizerID, EventID: r.EventID, CategoryID: r.CategoryID, CategoryName: r.CategoryName,
		OrderID: r.OrderID, TeamName: r.TeamName, Club: r.Club, Bib: r.Bib, Note: r.Note,
		CheckedInAt: nonNil(r.CheckedInAt), CustomFields: nonNil(r.CustomFields), SupplementIDs: nonNil(r.SupplementIDs),
		SupplementSelections: nonNil(r.SupplementSelections), WaiversAccepted: r.WaiversAccepted,
		PendingParticipants: r.PendingParticipants, CancelledAt: r.CancelledAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	if r.Guest != nil {
		row.GuestEmail, row.GuestName = &r.Guest.Email, &r.Guest.Name
	}
	return row
}

func newTicketRow(r domain.Registration, o domain.Order, c ticketCopy) ticketRow {
	t := c.t
	return ticketRow{
		ID: t.ID, AthleteID: t.AthleteID, OrganizerID: r.OrganizerID, RegistrationID: r.ID, OrderID: r.OrderID,
		Position: t.Position, Status: string(t.Status), CancelledAt: t.CancelledAt,
		Fullname: t.Athlete.Fullname, IDNumber: t.Athlete.IDNumber, Email: t.Athlete.Email, Phone: t.Athlete.Phone,
		Gender: t.Athlete.Gender, BirthDate: c.birth.Format(domain.DateLayout), Age: t.Age, EventID: r.EventID,
		CategoryID: r.CategoryID, CategoryName: r.CategoryName, TeamName: r.TeamName, Club: r.Club, Bib: r.Bib,
		CheckedIn: c.checked, ParticipantStatus: r.ParticipantStatus(), OrderStatus: string(o.Status),
		OrderAmount: o.Amount, CustomValues: c.values, SupplementKeys: c.keys, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
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
		out[i] = ticketCopy{t: t, values: values, keys: keys, birth: birth, checked: len(r.CheckedInAt) > 0}
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
	var in inserts
	if err := in.addOrder(o, regs); err != nil {
		return err
	}
	b := &pgx.Batch{}
	if err := in.queue(ctx, db.New(&queue{b: b})); err != nil {
		return err
	}
	return sendBatch(ctx, tx, b)
}
