package domain

import (
	"encoding/json"
	"time"
)

// State is where a checkout is in its life (README, "State machine").
type State string

// Checkout states.
const (
	// StateCreated: recorded, promocode reserved, no hold yet.
	StateCreated State = "CREATED"
	// StateHeld: registration holds the places (a PENDING order).
	StateHeld State = "HELD"
	// StateOpen: the Stripe Checkout Session is open, awaiting payment.
	StateOpen State = "OPEN"
	// StateProcessing: completed with a delayed payment method, awaiting its outcome.
	StateProcessing State = "PROCESSING"
	// StatePaid: Stripe collected the money, or there was nothing to pay (a zero total);
	// registration is confirming the order (payment.succeeded).
	StatePaid State = "PAID"
	// StateCompleted: registration confirmed the order (order.completed).
	StateCompleted State = "COMPLETED"
	// StateExpired: the Stripe session expired unpaid; the hold is being released.
	StateExpired State = "EXPIRED"
	// StatePaymentFailed: the delayed payment failed; the hold is being released.
	StatePaymentFailed State = "PAYMENT_FAILED"
	// StateReleased: registration released the hold (its own expiry) before any payment.
	StateReleased State = "RELEASED"
	// StateFailed: the session could not be created (hold refused or Stripe failed); nothing
	// was charged and no place is held.
	StateFailed State = "FAILED"
	// StateRefundPending: a refund of the payment was decided (RefundReason says why) and is
	// being made by the refund worker through the payment provider, outside any transaction,
	// retried after a temporary failure; it ends in one of the two refunded states, or in
	// REFUND_FAILED.
	StateRefundPending State = "REFUND_PENDING"
	// StateRefundFailed: the payment provider refused the refund for good, or there is no
	// payment to refund (RefundErrorCode and RefundErrorMessage say why, see RefundError and
	// RefundCodeNoPayment): nothing is retried until an operator, having fixed the cause, moves
	// it back to REFUND_PENDING (RetryRefund).
	StateRefundFailed State = "REFUND_FAILED"
	// StateRefundedNoPlace: paid after the hold lapsed with no place left; refunded.
	StateRefundedNoPlace State = "REFUNDED_NO_PLACE"
	// StateRefundedNoPromocode: paid after the hold lapsed when its limited promocode had no
	// use left (others took the uses the lapsed hold gave back); refunded.
	StateRefundedNoPromocode State = "REFUNDED_NO_PROMOCODE"
)

// PromoState tracks whether the checkout holds a use of its promocode (counted while it is
// paid, or awaits payment with its hold alive).
type PromoState string

// Promocode reservation states: none (no code), counted, or given back.
const (
	PromoNone     PromoState = "NONE"
	PromoReserved PromoState = "RESERVED"
	PromoReleased PromoState = "RELEASED"
)

// Checkout is one attempt to buy: its price, its hold (order) and its payment.
type Checkout struct {
	ID          string
	OrganizerID string
	// Livemode is false for test data: a purchase made with a test-mode key, paid through the
	// payment provider's test mode and kept apart from live data.
	Livemode       bool
	KeyID          string
	IdempotencyKey string
	EventID        string
	State          State
	Currency       string
	Total          int64
	Quote          Quote
	Promocode      string
	PromoState     PromoState
	// PromoMaxUses is the promocode's maxUses when it was priced (nil: unlimited).
	PromoMaxUses   *int64
	PurchaserEmail string
	PurchaserName  string
	LegalSignature *LegalSignature
	IPEnrichment   json.RawMessage
	Deferred       *DeferredTeamCompletion
	OrderID        string
	SessionID      string
	SessionURL     string
	PaymentIntent  string
	AmountPaid     *int64
	RefundID       string
	// RefundReason says why the payment is refunded (ReasonNoPlaceLeft or
	// ReasonPromocodeUsedUp), from the refund's decision on.
	RefundReason string
	// RefundAttempts counts the failed attempts of the pending refund; RefundNextAttemptAt is
	// when the refund worker makes it (again; nil: at once while pending), nil once it is made
	// or refused for good.
	RefundAttempts      int
	RefundNextAttemptAt *time.Time
	// RefundClaim counts the claims of the refund by a worker (it only grows): it tells the
	// worker holding the latest claim, the only one whose failure is recorded, and versions the
	// idempotency key (RefundIdempotencyKey). RefundClaimedUntil is the claim's lease, on the
	// database's clock; nil while no worker holds it.
	RefundClaim        int
	RefundClaimedUntil *time.Time
	// HoldTickets are the ticket ids of the hold, one list per registration in the order of
	// Quote.Registrations (nil for checkouts held before they were recorded).
	HoldTickets [][]string
	// RefundErrorCode and RefundErrorMessage are the last failure of the refund, as the payment
	// provider's adapter described it (never a secret): temporary while pending, the refusal
	// once REFUND_FAILED, at RefundFailedAt.
	RefundErrorCode    string
	RefundErrorMessage string
	RefundFailedAt     *time.Time
	HoldExpiresAt      time.Time
	SessionExpiresAt   *time.Time
	CreatedAt          time.Time
	UpdatedAt          time.Time
	PaidAt             *time.Time
	CompletedAt        *time.Time
}

// Resumable reports whether a session request interrupted in this state may carry on with the
// same checkout (same hold id, same Stripe idempotency key).
func (c *Checkout) Resumable() bool { return c.State == StateCreated || c.State == StateHeld }

// Held records the order holding the places.
func (c *Checkout) Held(orderID string, tickets [][]string, now time.Time) {
	c.OrderID = orderID
	if len(tickets) > 0 {
		c.HoldTickets = tickets
	}
	if c.State == StateCreated {
		c.set(StateHeld, now)
	}
}

// Opened records the Stripe session. A webhook that raced ahead keeps its state.
func (c *Checkout) Opened(s PaymentSession, now time.Time) {
	c.SessionID, c.SessionURL, c.PaymentIntent = s.ID, s.URL, s.PaymentIntent
	exp := s.ExpiresAt
	c.SessionExpiresAt = &exp
	if c.Resumable() {
		c.set(StateOpen, now)
	}
}

// PaidFree records a zero-total checkout as paid, under the session id and URL checkout made
// for it (no payment provider takes part), and returns its payment.succeeded of amount 0:
// registration confirms the order from it as from any payment. A checkout paid or beyond
// already is left as it is.
func (c *Checkout) PaidFree(sessionID, sessionURL string, now time.Time) []Message {
	if c.PaidOrBeyond() || c.OrderID == "" {
		return nil
	}
	c.SessionID, c.SessionURL = sessionID, sessionURL
	zero := int64(0)
	c.AmountPaid, c.PaidAt = &zero, &now
	c.set(StatePaid, now)
	return []Message{{Topic: PaymentsTopic, Key: c.OrderID, Type: EventPaymentSucceeded, Data: PaymentSucceeded{Livemode: c.Livemode,
		OrderID: c.OrderID, SessionID: sessionID, PaymentRef: PaymentRefFree, Amount: 0, Currency: c.Currency, PaidAt: now,
	}}}
}

// Failed records that the session could not be created; the promocode use is given back.
func (c *Checkout) Failed(now time.Time) {
	if c.Resumable() {
		c.set(StateFailed, now)
		c.releasePromo()
	}
}

func (c *Checkout) set(s State, now time.Time) {
	c.State = s
	c.UpdatedAt = now
}

func (c *Checkout) releasePromo() {
	if c.PromoState == PromoReserved {
		c.PromoState = PromoReleased
	}
}

// keepPromo counts the promocode use again after it was given back: a payment arrived. The
// repository takes the use again only if one is left (see HoldsPromocodeUse).
func (c *Checkout) keepPromo() {
	if c.PromoState == PromoReleased {
		c.PromoState = PromoReserved
	}
}

// HoldsPromocodeUse reports whether the checkout counts among its promocode's uses at now: it
// holds a use (a use given back is RELEASED) and is paid or completed, or its hold is alive
// (the repository's count of uses reads the same). A change that makes a checkout count again
// (a late payment) must find a use left of a limited code.
func (c *Checkout) HoldsPromocodeUse(now time.Time) bool {
	if c.Promocode == "" || c.PromoState != PromoReserved {
		return false
	}
	return c.State == StatePaid || c.State == StateCompleted || c.HoldExpiresAt.After(now)
}

// refundStarted reports the states of a payment being returned in full, returned, or whose
// return the payment provider refused.
func (c *Checkout) refundStarted() bool {
	switch c.State {
	case StateRefundPending, StateRefundFailed, StateRefundedNoPlace, StateRefundedNoPromocode:
		return true
	}
	return false
}

// PaidOrBeyond reports states a payment event no longer changes: paid, completed, refunding
// or refunded.
func (c *Checkout) PaidOrBeyond() bool {
	return c.State == StatePaid || c.State == StateCompleted || c.refundStarted()
}

// awaitingPayment reports states in which the hold is still wanted.
func (c *Checkout) awaitingPayment() bool {
	return c.State == StateHeld || c.State == StateOpen || c.State == StateProcessing
}
