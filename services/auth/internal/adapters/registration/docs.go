package registration

import (
	"time"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The answers the console reads, as registration's internal routes send them.

type deletedDoc struct {
	Livemode *bool     `json:"livemode"`
	Deleted  countsDoc `json:"deleted"`
}

type countsDoc struct {
	Orders            int `json:"orders"`
	Registrations     int `json:"registrations"`
	Tickets           int `json:"tickets"`
	Mail              int `json:"mail"`
	CheckoutSessions  int `json:"checkoutSessions"`
	WebhookEndpoints  int `json:"webhookEndpoints"`
	WebhookDeliveries int `json:"webhookDeliveries"`
}

func (d countsDoc) toDomain() domain.TestDataDeleted {
	return domain.TestDataDeleted(d)
}

type mailListDoc struct {
	Data  []mailDoc `json:"data"`
	Total int       `json:"total"`
}

type mailDoc struct {
	ID        string    `json:"id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	OrderID   *string   `json:"orderId"`
	CreatedAt time.Time `json:"createdAt"`
}

func (m mailDoc) toDomain() domain.TestMail {
	t := domain.TestMail{ID: m.ID, To: m.To, Subject: m.Subject, Text: m.Text, CreatedAt: m.CreatedAt.UTC()}
	if m.OrderID != nil {
		t.OrderID = *m.OrderID
	}
	return t
}
