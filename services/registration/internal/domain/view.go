package domain

import (
	"slices"
	"time"
)

// The views are registrations and orders as the organizer sees them: the organizer API answers
// with them and the registration and order events carry them as their object, so both show
// one thing the same way.

// AthleteView is a ticket's athlete.
type AthleteView struct {
	AthleteID string `json:"athleteId"`
	Athlete
}

// TicketView is a ticket of a registration.
type TicketView struct {
	TicketID    string      `json:"ticketId"`
	AthleteID   string      `json:"athleteId"`
	Status      string      `json:"status"`
	Position    int         `json:"position"`
	Age         int         `json:"age"`
	Athlete     AthleteView `json:"athlete"`
	CheckedInAt []time.Time `json:"checkedInAt"`
	CancelledAt *time.Time  `json:"cancelledAt"`
	CreatedAt   time.Time   `json:"createdAt"`
	// PendingWaivers are the waivers the athlete has still to sign.
	PendingWaivers []PendingWaiver `json:"pendingWaivers"`
	// SignedWaivers are the waivers the athlete signed since the last transfer, with when.
	SignedWaivers []SignedWaiver `json:"signedWaivers"`
	// Transfers is the ticket's transfer history, oldest first.
	Transfers []TransferView `json:"transfers"`
}

// TransferView is a transfer of a ticket: who gave the place, who took it, and when.
type TransferView struct {
	TransferID    string      `json:"transferId"`
	From          AthleteView `json:"from"`
	To            AthleteView `json:"to"`
	TransferredAt time.Time   `json:"transferredAt"`
}

// NewTransferView returns the view of t.
func NewTransferView(t Transfer) TransferView {
	return TransferView{TransferID: t.ID, From: t.From, To: t.To, TransferredAt: t.TransferredAt.UTC()}
}

// OrderView is the order of a registration.
type OrderView struct {
	OrderID        string     `json:"orderId"`
	Status         string     `json:"status"`
	Source         string     `json:"source"`
	Amount         int64      `json:"amount"`
	Currency       string     `json:"currency,omitempty"`
	AmountRefunded int64      `json:"amountRefunded,omitempty"`
	PurchaserEmail string     `json:"purchaserEmail,omitempty"`
	CreatedAt      time.Time  `json:"createdAt"`
	PaidAt         *time.Time `json:"paidAt"`
	ExpiresAt      *time.Time `json:"expiresAt,omitempty"`
	Livemode       bool       `json:"livemode"`
}

// RecordView is a registration without its tickets and order.
type RecordView struct {
	RegistrationID        string                `json:"registrationId"`
	EventID               string                `json:"eventId"`
	CategoryID            string                `json:"categoryId"`
	CategoryName          string                `json:"categoryName"`
	OrderID               string                `json:"orderId"`
	TeamName              string                `json:"teamName"`
	Club                  *string               `json:"club,omitempty"`
	BibRaceNumber         *int64                `json:"bibRaceNumber,omitempty"`
	Note                  *string               `json:"note,omitempty"`
	ParticipantDataStatus string                `json:"participantDataStatus"`
	PendingParticipants   int                   `json:"pendingParticipantCount"`
	Guest                 *GuestView            `json:"guest,omitempty"`
	CheckedInAt           []time.Time           `json:"checkedInAt"`
	CustomFields          []CustomFieldValue    `json:"customFields"`
	SelectedSupplementIDs []string              `json:"selectedSupplementIds"`
	SupplementSelections  []SupplementSelection `json:"supplementSelections"`
	CancelledAt           *time.Time            `json:"cancelledAt"`
	CreatedAt             time.Time             `json:"createdAt"`
	UpdatedAt             time.Time             `json:"updatedAt"`
	Livemode              bool                  `json:"livemode"`
}

// GuestView is the contact of a registration bought for someone else in a checkout.
type GuestView struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

// RegistrationView is a registration with every ticket and, when loaded, its order.
type RegistrationView struct {
	RecordView
	Tickets []TicketView `json:"tickets"`
	Order   *OrderView   `json:"order,omitempty"`
}

// OrderDetailView is an order with its event and the ids of its registrations and tickets (a
// registration deleted with its order unpaid is no longer among them), and its release.
type OrderDetailView struct {
	OrderView
	EventID         string     `json:"eventId"`
	ReleasedAt      *time.Time `json:"releasedAt"`
	ReleaseReason   string     `json:"releaseReason,omitempty"`
	RegistrationIDs []string   `json:"registrationIds"`
	TicketIDs       []string   `json:"ticketIds"`
	UpdatedAt       time.Time  `json:"updatedAt"`
}

// NewRecordView returns the view of r without its tickets and order.
func NewRecordView(r Registration) RecordView {
	v := RecordView{
		RegistrationID: r.ID, EventID: r.EventID, CategoryID: r.CategoryID, CategoryName: r.CategoryName,
		OrderID: r.OrderID, TeamName: r.TeamName, Club: r.Club, BibRaceNumber: r.Bib, Note: r.Note,
		ParticipantDataStatus: r.ParticipantStatus(), PendingParticipants: r.PendingParticipants,
		CheckedInAt: utcTimes(r.CheckedInAt), CustomFields: orEmpty(r.CustomFields),
		SelectedSupplementIDs: orEmpty(r.SupplementIDs), SupplementSelections: orEmpty(r.SupplementSelections),
		CancelledAt: utcPtr(r.CancelledAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Livemode: r.Livemode,
	}
	if r.Guest != nil {
		v.Guest = &GuestView{Email: r.Guest.Email, Name: r.Guest.Name}
	}
	return v
}

// NewTicketView returns the view of t, a ticket of r.
func NewTicketView(t Ticket, r Registration) TicketView {
	v := TicketView{
		TicketID: t.ID, AthleteID: t.AthleteID, Status: string(t.Status), Position: t.Position, Age: t.Age,
		Athlete: AthleteView{AthleteID: t.AthleteID, Athlete: t.Athlete}, CheckedInAt: t.CheckedInAt(r),
		CancelledAt: utcPtr(t.CancelledAt), CreatedAt: t.CreatedAt.UTC(),
		PendingWaivers: orEmpty(t.PendingWaivers), SignedWaivers: orEmpty(t.SignedWaivers), Transfers: make([]TransferView, len(t.Transfers)),
	}
	for i, tr := range t.Transfers {
		v.Transfers[i] = NewTransferView(tr)
	}
	return v
}

// CheckedInAt returns the ticket's check-in times: its registration's manual ones and its
// live check-in at the door, in order.
func (t Ticket) CheckedInAt(r Registration) []time.Time {
	out := utcTimes(r.CheckedInAt)
	if t.ScannedAt != nil {
		out = append(out, t.ScannedAt.UTC())
		slices.SortFunc(out, time.Time.Compare)
	}
	return out
}

// NewOrderView returns the view of o within a registration.
func NewOrderView(o Order) OrderView {
	return OrderView{
		OrderID: o.ID, Status: string(o.Status), Source: o.Source, Amount: o.Amount, Currency: o.Currency, AmountRefunded: o.AmountRefunded,
		PurchaserEmail: o.PurchaserEmail, CreatedAt: o.CreatedAt.UTC(), PaidAt: utcPtr(o.PaidAt), ExpiresAt: utcPtr(o.ExpiresAt),
		Livemode: o.Livemode,
	}
}

// NewRegistrationView returns the view of r with its tickets and, when loaded, its order.
func NewRegistrationView(r Registration) RegistrationView {
	v := RegistrationView{RecordView: NewRecordView(r), Tickets: make([]TicketView, len(r.Tickets))}
	for i, t := range r.Tickets {
		v.Tickets[i] = NewTicketView(t, r)
	}
	if r.Order != nil {
		o := NewOrderView(*r.Order)
		v.Order = &o
	}
	return v
}

// NewOrderDetailView returns the view of o with regs, its registrations.
func NewOrderDetailView(o Order, regs []Registration) OrderDetailView {
	v := OrderDetailView{
		OrderView: NewOrderView(o), EventID: o.EventID, ReleasedAt: utcPtr(o.ReleasedAt), ReleaseReason: o.ReleaseReason,
		RegistrationIDs: make([]string, len(regs)), TicketIDs: []string{}, UpdatedAt: o.UpdatedAt.UTC(),
	}
	for i, r := range regs {
		v.RegistrationIDs[i] = r.ID
		for _, t := range r.Tickets {
			v.TicketIDs = append(v.TicketIDs, t.ID)
		}
	}
	return v
}

func utcTimes(ts []time.Time) []time.Time {
	out := make([]time.Time, len(ts))
	for i, t := range ts {
		out[i] = t.UTC()
	}
	return out
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
