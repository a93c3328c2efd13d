package domain

import "slices"

// The webhook event types an endpoint may subscribe to.
const (
	RegistrationCreated    = "registration.created"
	RegistrationUpdated    = "registration.updated"
	RegistrationCancelled  = "registration.cancelled"
	OrderCompleted         = "order.completed"
	OrderFailed            = "order.failed"
	OrderRefunded          = "order.refunded"
	CheckoutSessionExpired = "checkout.session.expired"
	EventUpdated           = "event.updated"
	PricingChanged         = "pricing.changed"
	TicketCheckedIn        = "ticket.checked_in"
	WaitlistOffered        = "waitlist.offered"
	// RegistrationTransferred is a ticket given to another athlete.
	RegistrationTransferred = "registration.transferred"
)

// Ping is the type of the message the test call sends; no endpoint subscribes to it.
const Ping = "ping"

// EventTypes are the subscribable types, in the order the documentation lists them.
var EventTypes = []string{
	RegistrationCreated, RegistrationUpdated, RegistrationCancelled,
	OrderCompleted, OrderFailed, OrderRefunded,
	CheckoutSessionExpired, EventUpdated, PricingChanged,
	TicketCheckedIn,
	WaitlistOffered,
	RegistrationTransferred,
}

// KnownType reports whether t is a subscribable type.
func KnownType(t string) bool { return slices.Contains(EventTypes, t) }
