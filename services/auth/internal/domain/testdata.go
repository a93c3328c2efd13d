package domain

import "time"

// TestDataDeleted counts what a wipe of an organizer's test data deleted, as registration
// answers it (summing checkout's and webhooks' counts with its own).
type TestDataDeleted struct {
	Orders, Registrations, Tickets, Mail, CheckoutSessions, WebhookEndpoints, WebhookDeliveries int
}

// TestMail is an e-mail registration kept instead of sending it, for test data.
type TestMail struct {
	ID, To, Subject, Text string
	// OrderID is the order the mail is about, if any.
	OrderID   string
	CreatedAt time.Time
}
