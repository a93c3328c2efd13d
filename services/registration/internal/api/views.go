package api

import (
	"time"

	"github.com/podiumhq/podium/services/registration/internal/domain"
)

type athleteView struct {
	AthleteID string `json:"athleteId"`
	domain.Athlete
}

type ticketView struct {
	TicketID    string      `json:"ticketId"`
	AthleteID   string      `json:"athleteId"`
	Status      string      `json:"status"`
	Position    int         `json:"position"`
	Age         int         `json:"age"`
	Athlete     athleteView `json:"athlete"`
	CheckedInAt []time.Time `json:"checkedInAt"`
	CancelledAt *time.Time  `json:"cancelledAt"`
	CreatedAt   time.Time   `json:"createdAt"`
}

type orderView struct {
	OrderID        string     `json:"orderId"`
	Status         string     `json:"status"`
	Source         string     `json:"source"`
	Amount         int64      `json:"amount"`
	Currency       string     `json:"currency,omitempty"`
	PurchaserEmail string     `json:"purchaserEmail,omitempty"`
	CreatedAt      time.Time  `json:"createdAt"`
	PaidAt         *time.Time `json:"paidAt"`
	ExpiresAt      *time.Time `json:"expiresAt,omitempty"`
}

type recordView struct {
	RegistrationID        string                       `json:"registrationId"`
	EventID               string                       `json:"eventId"`
	CategoryID            string                       `json:"categoryId"`
	CategoryName          string                       `json:"categoryName"`
	OrderID               string                       `json:"orderId"`
	TeamName              string                       `json:"teamName"`
	Club                  *string                      `json:"club,omitempty"`
	BibRaceNumber         *int64                       `json:"bibRaceNumber,omitempty"`
	Note                  *string                      `json:"note,omitempty"`
	ParticipantDataStatus string                       `json:"participantDataStatus"`
	PendingParticipants   int                          `json:"pendingParticipantCount"`
	Guest                 *guestView                   `json:"guest,omitempty"`
	CheckedInAt           []time.Time                  `json:"checkedInAt"`
	CustomFields          []domain.CustomFieldValue    `json:"customFields"`
	SelectedSupplementIDs []string                     `json:"selectedSupplementIds"`
	SupplementSelections  []domain.SupplementSelection `json:"supplementSelections"`
	CancelledAt           *time.Time                   `json:"cancelledAt"`
	CreatedAt             time.Time                    `json:"createdAt"`
	UpdatedAt             time.Time                    `json:"updatedAt"`
}

// guestView is the contact of a registration bought for someone else in a checkout.
type guestView struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

type registrationView struct {
	recordView
	Tickets []ticketView `json:"tickets"`
	Order   *orderView   `json:"order,omitempty"`
}

type searchRowView struct {
	Ticket       ticketView  `json:"ticket"`
	Athlete      athleteView `json:"athlete"`
	Registration recordView  `json:"registration"`
	Order        orderView   `json:"order"`
}

type searchView struct {
	Data   []searchRowView `json:"data"`
	Total  int             `json:"total"`
	Limit  int             `json:"limit"`
	Offset int             `json:"offset"`
}

type deleteView struct {
	TicketID       string     `json:"ticketId"`
	Result         string     `json:"result"`
	RegistrationID string     `json:"registrationId,omitempty"`
	TicketStatus   string     `json:"ticketStatus,omitempty"`
	CancelledAt    *time.Time `json:"cancelledAt,omitempty"`
}

func newRecordView(r domain.Registration) recordView {
	v := recordView{
		RegistrationID: r.ID, EventID: r.EventID, CategoryID: r.CategoryID, CategoryName: r.CategoryName,
		OrderID: r.OrderID, TeamName: r.TeamName, Club: r.Club, BibRaceNumber: r.Bib, Note: r.Note,
		ParticipantDataStatus: r.ParticipantStatus(), PendingParticipants: r.PendingParticipants,
		CheckedInAt: utcTimes(r.CheckedInAt), CustomFields: nonNil(r.CustomFields),
		SelectedSupplementIDs: nonNil(r.SupplementIDs), SupplementSelections: nonNil(r.SupplementSelections),
		CancelledAt: utcPtr(r.CancelledAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
	if r.Guest != nil {
		v.Guest = &guestView{Email: r.Guest.Email, Name: r.Guest.Name}
	}
	return v
}

func newTicketView(t domain.Ticket, r domain.Registration) ticketView {
	return ticketView{
		TicketID: t.ID, AthleteID: t.AthleteID, Status: string(t.Status), Position: t.Position, Age: t.Age,
		Athlete: athleteView{AthleteID: t.AthleteID, Athlete: t.Athlete}, CheckedInAt: utcTimes(r.CheckedInAt),
		CancelledAt: utcPtr(t.CancelledAt), CreatedAt: t.CreatedAt.UTC(),
	}
}

func newOrderView(o domain.Order) orderView {
	return orderView{
		OrderID: o.ID, Status: string(o.Status), Source: o.Source, Amount: o.Amount, Currency: o.Currency,
		PurchaserEmail: o.PurchaserEmail, CreatedAt: o.CreatedAt.UTC(), PaidAt: utcPtr(o.PaidAt), ExpiresAt: utcPtr(o.ExpiresAt),
	}
}

func newRegistrationView(r domain.Registration) registrationView {
	v := registrationView{recordView: newRecordView(r), Tickets: make([]ticketView, len(r.Tickets))}
	for i, t := range r.Tickets {
		v.Tickets[i] = newTicketView(t, r)
	}
	if r.Order != nil {
		o := newOrderView(*r.Order)
		v.Order = &o
	}
	return v
}

func newSearchRowView(row domain.SearchRow) searchRowView {
	t := newTicketView(row.Ticket, row.Registration)
	return searchRowView{Ticket: t, Athlete: t.Athlete, Registration: newRecordView(row.Registration), Order: newOrderView(row.Order)}
}

func newDeleteView(d domain.DeleteResult) deleteView {
	return deleteView{TicketID: d.TicketID, Result: d.Result, RegistrationID: d.RegistrationID, TicketStatus: string(d.TicketState), CancelledAt: utcPtr(d.CancelledAt)}
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

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
