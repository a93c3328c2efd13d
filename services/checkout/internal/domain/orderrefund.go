package domain

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// An organizer's refund (POST /external/v1/organizer/refunds) returns the whole payment of an
// order or a part of it. It is decided in one transaction under the checkout's row lock
// (DecideRefund), counted against the payment at once so that concurrent refunds never return
// more than was paid, and made by the refund worker as the late-payment refunds are (see
// refund.go): claimed for a lease, asked of the provider outside any transaction with an
// idempotency key of its own, retried after a temporary failure, failed for good with the
// provider's code and message (its amount is then no longer counted). A refund that succeeded
// publishes refund.succeeded, from which registration marks the order (REFUNDED once the whole
// payment is returned) and cancels the tickets named for it, and the webhooks service sends
// order.refunded.

// States of an organizer's refund.
const (
	RefundStatePending   = "pending"
	RefundStateSucceeded = "succeeded"
	RefundStateFailed    = "failed"
)

// OrderRefundIdempotencyPrefix starts the provider's idempotency key of an organizer's refund.
const OrderRefundIdempotencyPrefix = "podium-order-refund-"

// Codes of an organizer's refunds refused.
const (
	CodeOrderNotPaid           = "order_not_paid"
	CodeRefundExceedsPaid      = "refund_exceeds_paid"
	CodeIdempotencyKeyRequired = "idempotency_key_required"
	CodeTicketAlreadyRefunded  = "ticket_already_refunded"
)

// ErrIdempotencyKeyRequired refuses a refund without a valid Idempotency-Key header.
var ErrIdempotencyKeyRequired = fault.NewInvalid("Idempotency-Key header is required: 8 to 120 letters, digits, '.', '_', ':' or '-'").
	WithCode(CodeIdempotencyKeyRequired)

// ErrOrderNotFound and ErrRefundNotFound answer an order with no payment of the organizer's in
// the key's mode (another organizer's, or one made without checkout), and an unknown refund.
var (
	ErrOrderNotFound  = fault.NewNotFound("order")
	ErrRefundNotFound = fault.NewNotFound("refund")
)

// ErrRefundNamesNothing refuses a refund that names neither an order nor tickets.
var ErrRefundNamesNothing = fault.NewInvalid("orderId or ticketIds is required")

// RefundRequest is an organizer's refund as the client sends it: an order, or tickets of one
// order; the amount (minor units) when not the whole of what they paid; the reason; whether
// the tickets named are cancelled.
type RefundRequest struct {
	OrderID       string   `json:"orderId"`
	TicketIDs     []string `json:"ticketIds"`
	Amount        *int64   `json:"amount"`
	Reason        string   `json:"reason"`
	CancelTickets bool     `json:"cancelTickets"`
}

// OrderRefund is an organizer's refund of (part of) an order's payment.
type OrderRefund struct {
	ID            string
	OrganizerID   string
	Livemode      bool
	CheckoutID    string
	OrderID       string
	PaymentIntent string
	Amount        int64
	Currency      string
	Reason        string
	TicketIDs     []string
	CancelTickets bool
	State         string
	// ProviderRefundID is the provider's refund once made.
	ProviderRefundID string
	// FailureCode and FailureMessage are the provider's last answer to a failed attempt.
	FailureCode, FailureMessage string
	Attempts, Claim             int
	NextAttemptAt, ClaimedUntil *time.Time
	CreatedAt, UpdatedAt        time.Time
	SucceededAt, FailedAt       *time.Time
}

// Refundable is what a refund is decided on: the order's checkout, locked, and what the
// refunds decided before return of its payment.
type Refundable struct {
	Checkout Checkout
	Refunded int64
	// RefundedTickets are the tickets a pending or succeeded refund names already.
	RefundedTickets []string
}

// Remaining is what is left to refund of the payment.
func (r Refundable) Remaining() int64 {
	if r.Checkout.AmountPaid == nil {
		return 0
	}
	return *r.Checkout.AmountPaid - r.Refunded
}

// DecideRefund decides the refund of req on r at now: its amount is req's, else the tickets'
// share (TicketsShare) when tickets are named, else what remains of the payment. A checkout
// not paid is refused with order_not_paid, a ticket a refund names already with
// ticket_already_refunded, an amount beyond what remains with refund_exceeds_paid.
func DecideRefund(r Refundable, req RefundRequest, id string, now time.Time) (OrderRefund, error) {
	c := r.Checkout
	if (c.State != StatePaid && c.State != StateCompleted) || c.AmountPaid == nil || *c.AmountPaid == 0 || c.PaymentIntent == "" {
		return OrderRefund{}, &fault.Error{Kind: fault.Conflict, Code: CodeOrderNotPaid,
			Problems: []string{fmt.Sprintf("order %s has no payment to refund", c.OrderID)}}
	}
	for _, t := range req.TicketIDs {
		if slices.Contains(r.RefundedTickets, t) {
			return OrderRefund{}, &fault.Error{Kind: fault.Conflict, Code: CodeTicketAlreadyRefunded,
				Problems: []string{fmt.Sprintf("ticket %s is refunded already, or being refunded", t)}}
		}
	}
	amount := r.Remaining()
	switch {
	case req.Amount != nil:
		amount = *req.Amount
	case len(req.TicketIDs) > 0:
		share, err := c.TicketsShare(req.TicketIDs)
		if err != nil {
			return OrderRefund{}, err
		}
		amount = share
	}
	if amount <= 0 || amount > r.Remaining() {
		return OrderRefund{}, &fault.Error{Kind: fault.Conflict, Code: CodeRefundExceedsPaid, Problems: []string{fmt.Sprintf(
			"a refund of %d exceeds what is left to refund of order %s: %d of the %d paid", amount, c.OrderID, r.Remaining(), *c.AmountPaid)}}
	}
	return OrderRefund{
		ID: id, OrganizerID: c.OrganizerID, Livemode: c.Livemode, CheckoutID: c.ID, OrderID: c.OrderID, PaymentIntent: c.PaymentIntent,
		Amount: amount, Currency: c.Currency, Reason: req.Reason, TicketIDs: req.TicketIDs, CancelTickets: req.CancelTickets,
		State: RefundStatePending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// TicketsShare is what the tickets paid: each ticket's share of its registration's total as
// the summary priced it (category price and supplements, less its promocode discount, plus
// its per-registration fees), split evenly among the registration's tickets, the first
// tickets taking the minor units left over. Per-order fees stay with the order: only a refund
// of what remains returns them.
func (c *Checkout) TicketsShare(tickets []string) (int64, error) {
	if len(c.HoldTickets) != len(c.Quote.Registrations) {
		return 0, fmt.Errorf("checkout %s: %d registrations held, %d priced", c.ID, len(c.HoldTickets), len(c.Quote.Registrations))
	}
	var share int64
	for _, t := range tickets {
		found := false
		for i, held := range c.HoldTickets {
			if pos := slices.Index(held, t); pos >= 0 {
				n, total := int64(len(held)), c.Quote.Registrations[i].Total
				share += total / n
				if int64(pos) < total%n {
					share++
				}
				found = true
				break
			}
		}
		if !found {
			return 0, fault.NewNotFound("ticket " + t)
		}
	}
	return share, nil
}

// Retried reports whether an attempt came before this claim's.
func (r *OrderRefund) Retried() bool { return r.Claim > 1 }

// ProviderRequest is the provider's refund of this claim: the amount, with the first claim's
// idempotency key podium-order-refund-<id> or a later one's podium-order-refund-<id>-<claim>
// (the provider keeps its first answer to a key, failures included), and the ids in its
// metadata (refundId finds it among the payment's refunds).
func (r *OrderRefund) ProviderRequest() Refund {
	key := OrderRefundIdempotencyPrefix + r.ID
	if r.Retried() {
		key += "-" + strconv.Itoa(r.Claim)
	}
	return Refund{PaymentIntent: r.PaymentIntent, Amount: r.Amount, IdempotencyKey: key, Metadata: map[string]string{
		"refundId": r.ID, "orderId": r.OrderID, "organizerId": r.OrganizerID, "reason": "organizer",
	}}
}

// Among returns the provider's refund that is this one (its metadata names it), if listed.
func (r *OrderRefund) Among(listed []ProviderRefund) (ProviderRefund, bool) {
	for _, p := range listed {
		if p.RefundID == r.ID && p.Status != "failed" && p.Status != "canceled" {
			return p, true
		}
	}
	return ProviderRefund{}, false
}

// holds reports whether the refund is pending under claim, the latest a worker made.
func (r *OrderRefund) holds(claim int) bool { return r.State == RefundStatePending && r.Claim == claim }

// Succeeded records the refund made as providerID; false when it was recorded already.
func (r *OrderRefund) Succeeded(providerID string, now time.Time) bool {
	if r.State == RefundStateSucceeded {
		return false
	}
	r.State, r.ProviderRefundID, r.SucceededAt, r.UpdatedAt = RefundStateSucceeded, providerID, &now, now
	r.NextAttemptAt, r.ClaimedUntil, r.FailedAt = nil, nil, nil
	return true
}

// RetryLater records a temporary failure of claim's attempt, the next due after wait.
func (r *OrderRefund) RetryLater(claim int, e *RefundError, now time.Time, wait time.Duration) bool {
	if !r.holds(claim) {
		return false
	}
	next := now.Add(wait)
	r.Attempts++
	r.NextAttemptAt, r.ClaimedUntil, r.UpdatedAt = &next, nil, now
	r.FailureCode, r.FailureMessage = e.Code, e.Message
	return true
}

// Refused records that the provider refused claim's attempt for good.
func (r *OrderRefund) Refused(claim int, e *RefundError, now time.Time) bool {
	if !r.holds(claim) {
		return false
	}
	r.Attempts++
	r.State, r.NextAttemptAt, r.ClaimedUntil, r.FailedAt, r.UpdatedAt = RefundStateFailed, nil, nil, &now, now
	r.FailureCode, r.FailureMessage = e.Code, e.Message
	return true
}

// EventRefundSucceeded is published when an organizer's refund was made.
const EventRefundSucceeded = "podium.checkout.refund.succeeded.v1"

// RefundSucceeded is refund.succeeded's data: the refund, what the payment's refunds made
// return in all, and whether that is the whole payment (the order is then refunded).
type RefundSucceeded struct {
	OrganizerID    string    `json:"organizerId"`
	Livemode       bool      `json:"livemode"`
	RefundID       string    `json:"refundId"`
	OrderID        string    `json:"orderId"`
	Amount         int64     `json:"amount"`
	Currency       string    `json:"currency"`
	Reason         string    `json:"reason"`
	AmountPaid     int64     `json:"amountPaid"`
	AmountRefunded int64     `json:"amountRefunded"`
	OrderRefunded  bool      `json:"orderRefunded"`
	TicketIDs      []string  `json:"ticketIds"`
	CancelTickets  bool      `json:"cancelTickets"`
	SucceededAt    time.Time `json:"succeededAt"`
}

// SucceededMessage is refund.succeeded of r, when the payment's refunds made return
// refundedTotal of paid.
func (r *OrderRefund) SucceededMessage(paid, refundedTotal int64) Message {
	tickets := r.TicketIDs
	if tickets == nil {
		tickets = []string{}
	}
	return Message{Topic: PaymentsTopic, Key: r.OrderID, Type: EventRefundSucceeded, Data: RefundSucceeded{
		OrganizerID: r.OrganizerID, Livemode: r.Livemode, RefundID: r.ID, OrderID: r.OrderID, Amount: r.Amount, Currency: r.Currency,
		Reason: r.Reason, AmountPaid: paid, AmountRefunded: refundedTotal, OrderRefunded: refundedTotal >= paid,
		TicketIDs: tickets, CancelTickets: r.CancelTickets, SucceededAt: *r.SucceededAt,
	}}
}
