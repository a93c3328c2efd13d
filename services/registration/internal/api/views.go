package api

import (
	"time"

	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Registrations and orders are shown by the domain's views (domain.NewRegistrationView), which
// the registration and order events carry too; these are the shapes of the search and delete
// answers.

type searchRowView struct {
	Ticket       domain.TicketView  `json:"ticket"`
	Athlete      domain.AthleteView `json:"athlete"`
	Registration domain.RecordView  `json:"registration"`
	Order        domain.OrderView   `json:"order"`
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

func newSearchRowView(row domain.SearchRow) searchRowView {
	t := domain.NewTicketView(row.Ticket, row.Registration)
	return searchRowView{Ticket: t, Athlete: t.Athlete, Registration: domain.NewRecordView(row.Registration), Order: domain.NewOrderView(row.Order)}
}

func newDeleteView(d domain.DeleteResult) deleteView {
	return deleteView{TicketID: d.TicketID, Result: d.Result, RegistrationID: d.RegistrationID, TicketStatus: string(d.TicketState), CancelledAt: utcPtr(d.CancelledAt)}
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
