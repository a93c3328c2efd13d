package domain

import "time"

// DeleteResult says what a delete did.
type DeleteResult struct {
	TicketID       string
	RegistrationID string
	// Result is DELETED or CANCELLED.
	Result      string
	TicketState TicketStatus
	CancelledAt *time.Time
}

// Delete results.
const (
	ResultDeleted   = "DELETED"
	ResultCancelled = "CANCELLED"
)

// DeleteAction is what the delete rule decides for a registration.
type DeleteAction int

// Delete actions.
const (
	// ActionRemove deletes the registration and its tickets (nothing was paid for it).
	ActionRemove DeleteAction = iota
	// ActionCancel cancels every ticket of the registration, keeping its rows.
	ActionCancel
	// ActionNone changes nothing: the ticket is already cancelled.
	ActionNone
)

// DecideDelete is the delete rule: a registration whose order was never paid (PENDING, or a
// released hold: CANCELLED, FAILED) is deleted and its places freed; a paid or manual one
// (COMPLETED, REFUNDED) has every ticket CANCELLED and its places freed, and stays searchable.
// A ticket already cancelled is left as it is, so repeating a delete is harmless.
func DecideDelete(order OrderStatus, ticket TicketStatus) DeleteAction {
	if ticket == TicketCancelled && (order == OrderCompleted || order == OrderRefunded) {
		return ActionNone
	}
	switch order {
	case OrderCompleted, OrderRefunded:
		return ActionCancel
	}
	return ActionRemove
}
