package domain

import (
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// A refund is made in three steps, so that nothing waits on the payment provider while the
// checkout's row is locked, and no message or webhook waits on it at all: the decision is
// recorded (REFUND_PENDING, with its reason, the payment to refund and its first attempt due at
// once) in the transaction of the event that calls for it, which is then done; the refund
// worker claims the due refund, asks the provider outside any transaction, with an idempotency
// key derived from the order (Refund), so that every attempt gets the first one's answer; the
// outcome is recorded in a transaction of its own: the refund (Refunded, with
// payment.refunded), another attempt later (RefundRetryLater) or a refusal for good
// (RefundRefused).
//
// The provider's adapter classifies a failed call (RefundError). Temporary: no answer (a
// network failure, a timeout), 409 (a request with the same idempotency key in flight), 429
// (rate limited, lock_timeout) and 5xx; asking again later may succeed, so the refund stays
// pending and is tried again after RefundRetryWait. Permanent: every other 4xx, such as 400
// invalid_request_error (charge_already_refunded, charge_disputed, amount_too_large), 402 card
// errors, 404 resource_missing, 401 and 403 (a key revoked, or a restricted key without the
// refund permission); Stripe answers the same until someone changes something there, so the
// checkout becomes REFUND_FAILED with the provider's code and message, for an operator to look
// at and retry (RetryRefund).

// RefundIdempotencyPrefix starts the payment provider's idempotency key of an order's refund.
const RefundIdempotencyPrefix = "podium-refund-"

// Refund is a refund to make through the payment provider.
type Refund struct {
	PaymentIntent  string
	IdempotencyKey string
	Metadata       map[string]string
}

// RefundPending reports whether a refund was decided and not made yet.
func (c *Checkout) RefundPending() bool { return c.State == StateRefundPending }

// RefundNoPlace decides the refund of an order registration found no place for (a payment
// after its hold lapsed): the payment to refund is the one e names, else the one recorded. A
// checkout that charged nothing is REFUNDED_NO_PLACE at once, with nothing to refund or
// publish; one refunding or refunded already is left as it is.
func (c *Checkout) RefundNoPlace(e OrderEvent, now time.Time) error {
	if c.refundStarted() {
		return nil
	}
	if c.Total == 0 {
		c.RefundReason = ReasonNoPlaceLeft
		c.releasePromo()
		c.set(StateRefundedNoPlace, now)
		return nil
	}
	pi := c.RefundPaymentIntent(e)
	if pi == "" {
		return fmt.Errorf("checkout %s: no payment to refund", c.ID)
	}
	c.PaymentIntent = pi
	c.startRefund(ReasonNoPlaceLeft, now)
	return nil
}

// RefundPaymentIntent is the payment to refund for an unfulfillable order: the one it names,
// else the one recorded from the webhooks.
func (c *Checkout) RefundPaymentIntent(e OrderEvent) string {
	if strings.HasPrefix(e.PaymentRef, "pi_") {
		return e.PaymentRef
	}
	return c.PaymentIntent
}

// RefundNoPromocode decides the refund of the payment e reports, made after the hold lapsed
// when the checkout's limited promocode had no use left (others took the uses the lapsed hold
// gave back): the payment, its amount and time are recorded, the use stays given back. A
// checkout paid or beyond (a delivery of the same payment settled it meanwhile) is left as it
// is.
func (c *Checkout) RefundNoPromocode(e PaymentEvent, now time.Time) error {
	if c.PaidOrBeyond() {
		return nil
	}
	c.notePaymentIntent(e.PaymentIntent)
	if c.PaymentIntent == "" {
		return fmt.Errorf("checkout %s: no payment to refund", c.ID)
	}
	amount := c.Total
	if e.AmountTotal != nil {
		amount = *e.AmountTotal
	}
	c.AmountPaid, c.PaidAt = &amount, &now
	c.SessionID = c.sessionID(e)
	c.startRefund(ReasonPromocodeUsedUp, now)
	return nil
}

func (c *Checkout) startRefund(reason string, now time.Time) {
	c.RefundReason = reason
	c.releasePromo()
	c.dueForRefund(now)
	c.set(StateRefundPending, now)
}

// dueForRefund makes the refund's first attempt due at now, with no failure behind it.
func (c *Checkout) dueForRefund(now time.Time) {
	c.RefundAttempts, c.RefundNextAttemptAt = 0, &now
	c.RefundErrorCode, c.RefundErrorMessage, c.RefundFailedAt = "", "", nil
}

// Refund is the refund a pending checkout calls for: the whole payment, with the idempotency
// key podium-refund-<orderId> and the ids and reason in its metadata.
func (c *Checkout) Refund() Refund {
	return Refund{
		PaymentIntent: c.PaymentIntent, IdempotencyKey: RefundIdempotencyPrefix + c.OrderID,
		Metadata: map[string]string{
			"orderId": c.OrderID, "checkoutId": c.ID, "organizerId": c.OrganizerID, "eventId": c.EventID, "reason": c.RefundReason,
		},
	}
}

// Refunded records the refund made for a pending checkout (REFUNDED_NO_PLACE or
// REFUNDED_NO_PROMOCODE by its reason) and returns payment.refunded, which tells registration
// its order was refunded (registration releases the order if it still holds it). A checkout
// no longer pending (another run recorded the same refund) is left as it is.
func (c *Checkout) Refunded(refundID string, now time.Time) []Message {
	if !c.RefundPending() {
		return nil
	}
	c.RefundID, c.RefundNextAttemptAt = refundID, nil
	to := StateRefundedNoPlace
	if c.RefundReason == ReasonPromocodeUsedUp {
		to = StateRefundedNoPromocode
	}
	c.set(to, now)
	amount := c.Total
	if c.AmountPaid != nil {
		amount = *c.AmountPaid
	}
	return []Message{{Topic: PaymentsTopic, Key: c.OrderID, Type: EventPaymentRefunded, Data: PaymentRefunded{
		OrderID: c.OrderID, SessionID: c.SessionID, RefundID: refundID, Amount: amount, Currency: c.Currency, RefundedAt: now,
	}}}
}

// RefundError is a refund the payment provider did not make, as its adapter classified the
// answer (see the top of this file).
type RefundError struct {
	// Code is the provider's error code (charge_already_refunded), empty without one.
	Code string
	// Message describes the failure, safe to store and log: never a secret.
	Message string
	// Permanent is true when asking again cannot succeed until someone changes something at
	// the provider.
	Permanent bool
}

func (e *RefundError) Error() string { return e.Message }

// Backoff of a refund's temporary failures: the first retry RefundFirstRetry after the
// failure, doubling with each further one up to RefundMaxRetry.
const (
	RefundFirstRetry = 10 * time.Second
	RefundMaxRetry   = 15 * time.Minute
)

// RefundRetryWait is how long to wait after a refund's attempts-th failed attempt: the
// backoff's step, of which a share between a half and the whole is taken by jitter (in [0, 1)),
// so that refunds that failed together do not retry in step.
func RefundRetryWait(attempts int, jitter float64) time.Duration {
	d := RefundMaxRetry
	if attempts < 20 {
		d = min(RefundFirstRetry<<max(attempts-1, 0), RefundMaxRetry)
	}
	return d/2 + time.Duration(float64(d/2)*jitter)
}

// RefundRetryLater records a temporary failure of the pending refund: one more attempt failed,
// the next is due after wait.
func (c *Checkout) RefundRetryLater(e *RefundError, now time.Time, wait time.Duration) {
	if !c.RefundPending() {
		return
	}
	next := now.Add(wait)
	c.RefundAttempts++
	c.RefundNextAttemptAt = &next
	c.RefundErrorCode, c.RefundErrorMessage = e.Code, e.Message
	c.UpdatedAt = now
}

// RefundRefused records that the payment provider refused the pending refund for good:
// REFUND_FAILED with its code and message, nothing more attempted. It reports whether the
// checkout changed (a refund no longer pending is left as it is).
func (c *Checkout) RefundRefused(e *RefundError, now time.Time) bool {
	if !c.RefundPending() {
		return false
	}
	c.RefundAttempts++
	c.RefundNextAttemptAt, c.RefundFailedAt = nil, &now
	c.RefundErrorCode, c.RefundErrorMessage = e.Code, e.Message
	c.set(StateRefundFailed, now)
	return true
}

// RetryRefund moves a refund the provider refused back to REFUND_PENDING, due at once and with
// its failures forgotten, once an operator fixed the cause at the provider. The refund keeps
// its idempotency key. A checkout in another state is refused.
func (c *Checkout) RetryRefund(now time.Time) error {
	if c.State != StateRefundFailed {
		return fault.NewConflict(fmt.Sprintf("checkout %s is %s: only a refund in %s can be retried", c.ID, c.State, StateRefundFailed))
	}
	c.dueForRefund(now)
	c.set(StateRefundPending, now)
	return nil
}
