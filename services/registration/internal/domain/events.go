package domain

import "time"

// Topics registration produces and consumes.
const (
	PlacesTopic        = "registration.places.v1"
	OrdersTopic        = "registration.orders.v1"
	RegistrationsTopic = "registration.registrations.v1"
	PaymentsTopic      = "checkout.payments.v1"
)

// EventSource is the CloudEvents source of every event registration publishes.
const EventSource = "podium/registration"

// Event types.
const (
	EventPlacesChanged    = "podium.registration.places.changed.v2"
	EventOrderCompleted   = "podium.registration.order.completed.v1"
	EventOrderReleased    = "podium.registration.order.released.v1"
	EventOrderUnfulfilled = "podium.registration.order.unfulfillable.v1"
	EventOrderRefunded    = "podium.registration.order.refunded.v1"
	EventRegCreated       = "podium.registration.registration.created.v1"
	EventRegUpdated       = "podium.registration.registration.updated.v1"
	EventRegCancelled     = "podium.registration.registration.cancelled.v1"
	EventTicketCheckedIn  = "podium.registration.ticket.checked_in.v1"
	EventRegTransferred   = "podium.registration.registration.transferred.v1"
	EventPaymentSucceeded = "podium.checkout.payment.succeeded.v1"
	EventPaymentFailed    = "podium.checkout.payment.failed.v1"
	EventPaymentRefunded  = "podium.checkout.payment.refunded.v1"
	EventRefundSucceeded  = "podium.checkout.refund.succeeded.v1"
	PaymentsConsumerGroup = "registration-payments"
)

// PlacesChanged is the data of a podium.registration.places.changed.v2 event: the absolute
// counts and ledger version of each category of one event that a transaction changed, as it
// left them. The store builds it in SQL from the ledger rows (AnnouncePlaces); this type
// reads it.
type PlacesChanged struct {
	EventID    string           `json:"eventId"`
	Categories []CategoryPlaces `json:"categories"`
	OccurredAt time.Time        `json:"occurredAt"`
}

// CategoryPlaces are a category's counts in a PlacesChanged event.
type CategoryPlaces struct {
	CategoryID string `json:"categoryId"`
	Confirmed  int    `json:"confirmed"`
	Held       int    `json:"held"`
	Version    int64  `json:"version"`
}

// RegistrationEvent is the data of the registration events (created when a registration is
// confirmed, updated by the organizer, cancelled): the registration as the organizer API shows
// it after the change.
type RegistrationEvent struct {
	OrganizerID string           `json:"organizerId"`
	Livemode    bool             `json:"livemode"`
	OccurredAt  time.Time        `json:"occurredAt"`
	Object      RegistrationView `json:"object"`
}

// NewRegistrationEvent returns the data of an event about r (its Order loaded) at now.
func NewRegistrationEvent(r Registration, now time.Time) RegistrationEvent {
	return RegistrationEvent{OrganizerID: r.OrganizerID, Livemode: r.Livemode, OccurredAt: now.UTC(), Object: NewRegistrationView(r)}
}

// RegistrationTransferredEvent is the data of podium.registration.registration.transferred.v1:
// the transfer and the registration as the organizer API shows it after it.
type RegistrationTransferredEvent struct {
	OrganizerID string           `json:"organizerId"`
	Livemode    bool             `json:"livemode"`
	OccurredAt  time.Time        `json:"occurredAt"`
	TicketID    string           `json:"ticketId"`
	Transfer    TransferView     `json:"transfer"`
	Object      RegistrationView `json:"object"`
}

// NewRegistrationTransferredEvent returns the data of transfer t of r (its Order loaded).
func NewRegistrationTransferredEvent(r Registration, t Transfer) RegistrationTransferredEvent {
	return RegistrationTransferredEvent{
		OrganizerID: r.OrganizerID, Livemode: r.Livemode, OccurredAt: t.TransferredAt.UTC(), TicketID: t.TicketID,
		Transfer: NewTransferView(t), Object: NewRegistrationView(r),
	}
}

// OrderCompletedEvent is the data of podium.registration.order.completed.v1.
type OrderCompletedEvent struct {
	OrderID     string          `json:"orderId"`
	EventID     string          `json:"eventId"`
	OrganizerID string          `json:"organizerId"`
	CompletedAt time.Time       `json:"completedAt"`
	Livemode    bool            `json:"livemode"`
	OccurredAt  time.Time       `json:"occurredAt"`
	Object      OrderDetailView `json:"object"`
}

// OrderReleasedEvent is the data of podium.registration.order.released.v1.
type OrderReleasedEvent struct {
	OrderID     string          `json:"orderId"`
	Reason      string          `json:"reason"`
	ReleasedAt  time.Time       `json:"releasedAt"`
	OrganizerID string          `json:"organizerId"`
	Livemode    bool            `json:"livemode"`
	OccurredAt  time.Time       `json:"occurredAt"`
	Object      OrderDetailView `json:"object"`
}

// OrderRefundedEvent is the data of podium.registration.order.refunded.v1.
type OrderRefundedEvent struct {
	OrderID     string          `json:"orderId"`
	EventID     string          `json:"eventId"`
	OrganizerID string          `json:"organizerId"`
	Livemode    bool            `json:"livemode"`
	OccurredAt  time.Time       `json:"occurredAt"`
	Object      OrderDetailView `json:"object"`
}

// NewOrderCompletedEvent returns the data of o's completion at now; regs are its registrations.
func NewOrderCompletedEvent(o Order, regs []Registration, now time.Time) OrderCompletedEvent {
	return OrderCompletedEvent{
		OrderID: o.ID, EventID: o.EventID, OrganizerID: o.OrganizerID, CompletedAt: now.UTC(),
		Livemode: o.Livemode, OccurredAt: now.UTC(), Object: NewOrderDetailView(o, regs),
	}
}

// NewOrderReleasedEvent returns the data of o's release for reason at now.
func NewOrderReleasedEvent(o Order, regs []Registration, reason string, now time.Time) OrderReleasedEvent {
	return OrderReleasedEvent{
		OrderID: o.ID, Reason: reason, ReleasedAt: now.UTC(), OrganizerID: o.OrganizerID,
		Livemode: o.Livemode, OccurredAt: now.UTC(), Object: NewOrderDetailView(o, regs),
	}
}

// NewOrderRefundedEvent returns the data of o's refund at now.
func NewOrderRefundedEvent(o Order, regs []Registration, now time.Time) OrderRefundedEvent {
	return OrderRefundedEvent{
		OrderID: o.ID, EventID: o.EventID, OrganizerID: o.OrganizerID,
		Livemode: o.Livemode, OccurredAt: now.UTC(), Object: NewOrderDetailView(o, regs),
	}
}

// OrderUnfulfillableEvent is the data of podium.registration.order.unfulfillable.v1.
type OrderUnfulfillableEvent struct {
	OrderID    string `json:"orderId"`
	Reason     string `json:"reason"`
	PaymentRef string `json:"paymentRef"`
}

// Release reasons.
const (
	ReleaseExpired   = "EXPIRED"
	ReleaseFailed    = "FAILED"
	ReleaseCancelled = "CANCELLED"
)

// PlaceDelta is a change of one category's ledger.
type PlaceDelta struct {
	CategoryID string
	EventID    string
	Confirmed  int
	Held       int
	// Quota, when Check is set, bounds confirmed + held after the change (nil: unlimited).
	Quota *int
	Check bool
	// Livemode is the mode of the ledger row (test places count apart).
	Livemode bool
}

// Mail is an e-mail to send.
type Mail struct {
	To      string
	Subject string
	Body    string
	// DedupeKey, when set, keeps a second mail with the key from being queued while the first
	// is still unsent.
	DedupeKey string
	// Test marks a mail test data caused: it is kept as the organizer's test mail, never sent.
	Test        bool
	OrganizerID string
	// OrderID is the order the mail is about, when one is.
	OrderID string
}

// QueuedMail is a message of the mail outbox leased for sending.
type QueuedMail struct {
	ID       int64
	Mail     Mail
	Attempts int
	// Revision is the version of the content that was leased: a mail queued again with its
	// dedupe key while unsent takes the new content and the next revision.
	Revision int32
}
