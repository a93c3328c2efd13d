package domain

import "time"

// Topics and event types checkout produces and consumes (docs/contracts/registration-holds.md).
const (
	PaymentsTopic = "checkout.payments.v1"
	OrdersTopic   = "registration.orders.v1"
	EventSource   = "podium/checkout"

	EventPaymentSucceeded = "podium.checkout.payment.succeeded.v1"
	EventPaymentFailed    = "podium.checkout.payment.failed.v1"
	EventPaymentRefunded  = "podium.checkout.payment.refunded.v1"

	EventOrderCompleted     = "podium.registration.order.completed.v1"
	EventOrderReleased      = "podium.registration.order.released.v1"
	EventOrderUnfulfillable = "podium.registration.order.unfulfillable.v1"
)

// Reasons of a payment failure.
const (
	FailureFailed  = "FAILED"
	FailureExpired = "EXPIRED"
)

// Reasons of a refund (in the refund's metadata): a payment made after its hold lapsed found
// no place left (registration's unfulfillable reason), or its limited promocode with no use
// left.
const (
	ReasonNoPlaceLeft     = "NO_PLACE_LEFT"
	ReasonPromocodeUsedUp = "PROMOCODE_USED_UP"
)

// PaymentRefFree is the payment reference of zero-total orders.
const PaymentRefFree = "free"

// Message is an event to publish through the outbox, in the transaction of the change.
type Message struct {
	Topic string
	Key   string
	Type  string
	Data  any
}

// PaymentSucceeded is the data of podium.checkout.payment.succeeded.v1.
type PaymentSucceeded struct {
	OrderID    string    `json:"orderId"`
	SessionID  string    `json:"sessionId"`
	PaymentRef string    `json:"paymentRef"`
	Amount     int64     `json:"amount"`
	Currency   string    `json:"currency"`
	PaidAt     time.Time `json:"paidAt"`
	// Livemode is false for a test purchase (absent in older messages: true).
	Livemode bool `json:"livemode"`
}

// PaymentFailed is the data of podium.checkout.payment.failed.v1; Livemode is the checkout's.
type PaymentFailed struct {
	OrderID     string          `json:"orderId"`
	SessionID   string          `json:"sessionId"`
	Reason      string          `json:"reason"`
	OrganizerID string          `json:"organizerId"`
	Livemode    bool            `json:"livemode"`
	OccurredAt  time.Time       `json:"occurredAt"`
	Object      CheckoutSession `json:"object"`
}

// PaymentRefunded is the data of podium.checkout.payment.refunded.v1: the payment of an order
// that found no place left was returned in full.
type PaymentRefunded struct {
	OrderID    string    `json:"orderId"`
	SessionID  string    `json:"sessionId"`
	RefundID   string    `json:"refundId"`
	Amount     int64     `json:"amount"`
	Currency   string    `json:"currency"`
	RefundedAt time.Time `json:"refundedAt"`
	// Livemode is false for a test purchase (absent in older messages: true).
	Livemode bool `json:"livemode"`
}

// PaymentRequest asks the payment provider for a hosted checkout.
type PaymentRequest struct {
	CheckoutID     string
	OrderID        string
	EventID        string
	OrganizerID    string
	Currency       string
	Lines          []PaymentLine
	CustomerEmail  string
	SuccessURL     string
	CancelURL      string
	ExpiresAt      time.Time
	IdempotencyKey string
}

// PaymentSession is a hosted checkout the provider opened.
type PaymentSession struct {
	ID            string
	URL           string
	PaymentIntent string
	ExpiresAt     time.Time
}

// PaymentEventKind is what a payment provider's webhook reports.
type PaymentEventKind string

// Webhook kinds checkout acts on.
const (
	PaymentCompleted      PaymentEventKind = "checkout.session.completed"
	PaymentAsyncSucceeded PaymentEventKind = "checkout.session.async_payment_succeeded"
	PaymentAsyncFailed    PaymentEventKind = "checkout.session.async_payment_failed"
	PaymentExpired        PaymentEventKind = "checkout.session.expired"
)

// PaymentEvent is a verified webhook about a checkout session.
type PaymentEvent struct {
	ID   string
	Kind PaymentEventKind
	// SessionID is the provider's session id; CheckoutID and OrderID come from its metadata.
	SessionID  string
	CheckoutID string
	OrderID    string
	// OrganizerID comes from the session's metadata (empty when it names none).
	OrganizerID string
	// Livemode is the mode of the payment provider's credentials that verified the event (or
	// listed the session): an event verified with the test secret only ever moves test checkouts.
	Livemode bool
	// Paid is true when the session's payment_status is paid (or no payment was required).
	Paid          bool
	PaymentIntent string
	// AmountTotal is what the session charged, nil when the payload does not say.
	AmountTotal *int64
	Currency    string
	// Created is when the provider created the event (zero for an outcome reconciliation read
	// from the session itself).
	Created time.Time
}

// Handled reports whether checkout acts on the event's kind.
func (e PaymentEvent) Handled() bool {
	switch e.Kind {
	case PaymentCompleted, PaymentAsyncSucceeded, PaymentAsyncFailed, PaymentExpired:
		return true
	}
	return false
}

// ApplyPayment moves the checkout by a webhook and returns the events to publish. Duplicates
// and any arrival order are harmless: a success confirms from any state short of paid (after
// an expiry, registration takes a place again if one is left); nothing changes a paid
// checkout; a failure or expiry only ends a checkout still awaiting payment.
func (c *Checkout) ApplyPayment(e PaymentEvent, now time.Time) []Message {
	switch {
	case e.Kind == PaymentAsyncSucceeded || (e.Kind == PaymentCompleted && e.Paid):
		if c.PaidOrBeyond() || c.OrderID == "" {
			return nil
		}
		return []Message{c.paid(e, now)}
	case e.Kind == PaymentCompleted:
		if c.State == StateHeld || c.State == StateOpen {
			c.set(StateProcessing, now)
			c.notePaymentIntent(e.PaymentIntent)
		}
		return nil
	case e.Kind == PaymentAsyncFailed:
		return c.unpaid(e, StatePaymentFailed, FailureFailed, SessionStatusFailed, now)
	case e.Kind == PaymentExpired:
		return c.unpaid(e, StateExpired, FailureExpired, SessionStatusExpired, now)
	}
	return nil
}

// HasOutcome reports whether the checkout already has the outcome e reports, so that e
// changes nothing: a payment of a checkout paid or beyond (refunded included), an expiry of an
// expired one, a failure of a failed one, a delayed payment of one processing. Another event
// of the same outcome (a webhook after reconciliation settled it, async_payment_succeeded
// after completed) is a duplicate.
func (c *Checkout) HasOutcome(e PaymentEvent) bool {
	switch {
	case e.Kind == PaymentAsyncSucceeded || (e.Kind == PaymentCompleted && e.Paid):
		return c.PaidOrBeyond()
	case e.Kind == PaymentCompleted:
		return c.State == StateProcessing
	case e.Kind == PaymentAsyncFailed:
		return c.State == StatePaymentFailed
	case e.Kind == PaymentExpired:
		return c.State == StateExpired
	}
	return false
}

// Changes reports whether applying e would move the checkout.
func (c *Checkout) Changes(e PaymentEvent) bool {
	moved := *c
	moved.ApplyPayment(e, c.UpdatedAt)
	return moved.State != c.State
}

func (c *Checkout) paid(e PaymentEvent, now time.Time) Message {
	c.notePaymentIntent(e.PaymentIntent)
	amount := c.Total
	if e.AmountTotal != nil {
		amount = *e.AmountTotal
	}
	c.AmountPaid, c.PaidAt = &amount, &now
	c.keepPromo()
	c.set(StatePaid, now)
	ref := c.PaymentIntent
	if ref == "" {
		ref = c.SessionID
	}
	return Message{Topic: PaymentsTopic, Key: c.OrderID, Type: EventPaymentSucceeded, Data: PaymentSucceeded{
		Livemode: c.Livemode, OrderID: c.OrderID, SessionID: c.sessionID(e), PaymentRef: ref, Amount: amount, Currency: c.Currency, PaidAt: now,
	}}
}

func (c *Checkout) unpaid(e PaymentEvent, to State, reason, status string, now time.Time) []Message {
	if !c.awaitingPayment() {
		return nil
	}
	c.set(to, now)
	c.releasePromo()
	return []Message{{Topic: PaymentsTopic, Key: c.OrderID, Type: EventPaymentFailed, Data: PaymentFailed{
		OrderID: c.OrderID, SessionID: c.sessionID(e), Reason: reason,
		OrganizerID: c.OrganizerID, Livemode: c.Livemode, OccurredAt: now.UTC(), Object: c.sessionView(e, status),
	}}}
}

func (c *Checkout) sessionID(e PaymentEvent) string {
	if c.SessionID != "" {
		return c.SessionID
	}
	return e.SessionID
}

func (c *Checkout) notePaymentIntent(pi string) {
	if pi != "" {
		c.PaymentIntent = pi
	}
}

// OrderEvent is an event of registration about an order checkout created.
type OrderEvent struct {
	Type       string
	OrderID    string
	Reason     string
	PaymentRef string
}

// ApplyOrder moves the checkout by an order event of registration and reports whether it
// changed. An unfulfillable order is refunded instead (RefundNoPlace).
func (c *Checkout) ApplyOrder(e OrderEvent, now time.Time) bool {
	switch e.Type {
	case EventOrderCompleted:
		if c.State == StateCompleted || c.refundStarted() {
			return false
		}
		c.keepPromo()
		c.CompletedAt = &now
		c.set(StateCompleted, now)
		return true
	case EventOrderReleased:
		if c.State != StateCreated && !c.awaitingPayment() {
			return false
		}
		c.releasePromo()
		c.set(StateReleased, now)
		return true
	}
	return false
}
