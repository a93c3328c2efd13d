package domain

import "time"

// CodeTestKeyRequired refuses a live key on a route that works on test data only.
const CodeTestKeyRequired = "test_key_required"

// TestMailKeep is how long a kept test mail is listed before the sweeper deletes it.
const TestMailKeep = 30 * 24 * time.Hour

// TestMail is a mail test data caused, kept instead of sent.
type TestMail struct {
	ID        string    `json:"id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	OrderID   string    `json:"orderId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// Page is a page of a list: Limit items from Offset.
type Page struct {
	Limit  int
	Offset int
}

// TestDataDeleted counts what a wipe of an organizer's test data deleted, here and at the
// peers (checkout's sessions, the webhooks service's endpoints and deliveries).
type TestDataDeleted struct {
	Orders            int64 `json:"orders"`
	Registrations     int64 `json:"registrations"`
	Tickets           int64 `json:"tickets"`
	Mail              int64 `json:"mail"`
	CheckoutSessions  int64 `json:"checkoutSessions"`
	WebhookEndpoints  int64 `json:"webhookEndpoints"`
	WebhookDeliveries int64 `json:"webhookDeliveries"`
}
