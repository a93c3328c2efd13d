package domain

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
)

// A refund is made in three steps, so that nothing waits on the payment provider while the
// checkout's row is locked, and no message or webhook waits on it at all: the decision is
// recorded (REFUND_PENDING, with its reason, the payment to refund and its first attempt due at
// once) in the transaction of the event that calls for it, which is then done; a refund worker
// claims the due refund (RefundClaim counts the claims) and asks the provider outside any
// transaction; the outcome is recorded in a transaction of its own: the refund (Refunded, with
// payment.refunded), another attempt later (RefundRetryLater) or a refusal for good
// (RefundRefused). A failure is recorded only by the worker holding the latest claim, so a
// worker whose claim lapsed never overwrites a later one's outcome.
//
// The provider keeps its first answer to an idempotency key, failures included, and gives it
// again to every request with the key. So only a refund's first attempt is made with the key
// of its order (RefundIdempotencyKey); before any later one (after a temporary failure, an
// operator's retry, or a claim that lapsed) and when the provider answers that the payment was
// refunded already, the worker reads the payment's refunds (RefundAmong): one naming this
// checkout is recorded as made; refunds made otherwise (the provider's dashboard) that return
// the whole payment are recorded as its refund; otherwise the refund is asked for with a key
// of the attempt's claim. That never refunds twice: a full refund of a payment refunded in full
// already is refused by the provider.
//
// The provider's adapter classifies a failed call (RefundError). Temporary: no answer (a
// network failure, a timeout), 409 (a request with the same idempotency key in flight), 429
// (rate limited, lock_timeout) and 5xx; asking again later may succeed, so the refund stays
// pending and is tried again after RefundRetryWait. Permanent: every other 4xx, such as 400
// invalid_request_error (charge_disputed, amount_too_large), 402 card errors, 404
// resource_missing, 401 and 403 (a key revoked, or a restricted key without the refund
// permission); the provider answers the same until someone changes something there, so the
// checkout becomes REFUND_FAILED with the provider's code and message, for an operator to look
// at and retry (RetryRefund). The provider's advice to retry makes any failure temporary; its
// advice not to retry speaks of the same key, and changes nothing here.

// RefundIdempotencyPrefix starts the payment provider's idempotency key of an order's refund.
const RefundIdempotencyPrefix = "podium-refund-"

// RefundCodeNoPayment is the code of a refund that cannot be asked for: no payment to refund
// is recorded (the provider reported none). It is REFUND_FAILED at once, until an operator
// names the payment (RetryRefund).
const RefundCodeNoPayment = "no_payment_to_refund"

// Refund is a refund to make through the payment provider.
type Refund struct {
	PaymentIntent string
	// Amount is what to return, in minor units; zero returns the whole payment.
	Amount         int64
	IdempotencyKey string
	Metadata       map[string]string
}

// RefundPending reports whether a refund was decided and not made yet.
func (c *Checkout) RefundPending() bool { return c.State == StateRefundPending }

// RefundNoPlace decides the refund of an order registration found no place for (a payment
// after its hold lapsed): the payment to refund is the one e names, else the one recorded. A
// checkout that charged nothing is REFUNDED_NO_PLACE at once, with nothing to refund or
// publish; one with no payment to refund is REFUND_FAILED (RefundCodeNoPayment); one refunding
// or refunded already is left as it is.
func (c *Checkout) RefundNoPlace(e OrderEvent, now time.Time) {
	if c.refundStarted() {
		return
	}
	if c.Total == 0 {
		c.RefundReason = ReasonNoPlaceLeft
		c.releasePromo()
		c.set(StateRefundedNoPlace, now)
		return
	}
	c.notePaymentIntent(c.RefundPaymentIntent(e))
	c.startRefund(ReasonNoPlaceLeft, now)
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
// is; one with no payment to refund is REFUND_FAILED (RefundCodeNoPayment).
func (c *Checkout) RefundNoPromocode(e PaymentEvent, now time.Time) {
	if c.PaidOrBeyond() {
		return
	}
	c.notePaymentIntent(e.PaymentIntent)
	amount := c.Total
	if e.AmountTotal != nil {
		amount = *e.AmountTotal
	}
	c.AmountPaid, c.PaidAt = &amount, &now
	c.SessionID = c.sessionID(e)
	c.startRefund(ReasonPromocodeUsedUp, now)
}

// startRefund decides the refund: REFUND_PENDING due at once, or REFUND_FAILED when there is
// no payment to refund, which asking the provider again and again would never change.
func (c *Checkout) startRefund(reason string, now time.Time) {
	c.RefundReason = reason
	c.releasePromo()
	c.dueForRefund(now)
	if c.PaymentIntent == "" {
		c.RefundNextAttemptAt, c.RefundFailedAt = nil, &now
		c.RefundErrorCode = RefundCodeNoPayment
		c.RefundErrorMessage = "no payment to refund is recorded for this checkout (the payment provider reported none): " +
			"find the payment and retry the refund naming it"
		c.set(StateRefundFailed, now)
		return
	}
	c.set(StateRefundPending, now)
}

// dueForRefund makes the refund's next attempt due at now, with no failure behind it.
func (c *Checkout) dueForRefund(now time.Time) {
	c.RefundAttempts, c.RefundNextAttemptAt = 0, &now
	c.RefundErrorCode, c.RefundErrorMessage, c.RefundFailedAt = "", "", nil
}

// RefundAmount is what the refund returns: the amount paid, else the checkout's total.
func (c *Checkout) RefundAmount() int64 {
	if c.AmountPaid != nil {
		return *c.AmountPaid
	}
	return c.Total
}

// RefundRetried reports whether an attempt of the claimed refund came before this one (an
// earlier claim): the provider may have made the refund, or keeps a failed answer under the
// earlier key, so the payment's refunds are read before asking again.
func (c *Checkout) RefundRetried() bool { return c.RefundClaim > 1 }

// RefundIdempotencyKey is the idempotency key of the claimed refund's attempt:
// podium-refund-<orderId> for the first claim, podium-refund-<orderId>-<claim> after it.
func (c *Checkout) RefundIdempotencyKey() string {
	if !c.RefundRetried() {
		return RefundIdempotencyPrefix + c.OrderID
	}
	return RefundIdempotencyPrefix + c.OrderID + "-" + strconv.Itoa(c.RefundClaim)
}

// Refund is the refund a claimed checkout calls for: the whole payment, with the claim's
// idempotency key and the ids and reason in its metadata.
func (c *Checkout) Refund() Refund {
	return Refund{
		PaymentIntent: c.PaymentIntent, IdempotencyKey: c.RefundIdempotencyKey(),
		Metadata: map[string]string{
			"orderId": c.OrderID, "checkoutId": c.ID, "organizerId": c.OrganizerID, "eventId": c.EventID, "reason": c.RefundReason,
		},
	}
}

// Refunded records the refund made for the checkout (REFUNDED_NO_PLACE or
// REFUNDED_NO_PROMOCODE by its reason) and returns payment.refunded, which tells registration
// its order was refunded (registration releases the order if it still holds it). It is recorded
// whichever claim made it, also over a refusal another attempt recorded meanwhile: the payment
// was returned. A checkout refunded already is left as it is (nil).
func (c *Checkout) Refunded(refundID string, now time.Time) []Message {
	if c.State != StateRefundPending && c.State != StateRefundFailed {
		return nil
	}
	c.RefundID, c.RefundNextAttemptAt, c.RefundClaimedUntil = refundID, nil, nil
	to := StateRefundedNoPlace
	if c.RefundReason == ReasonPromocodeUsedUp {
		to = StateRefundedNoPromocode
	}
	c.set(to, now)
	return []Message{{Topic: PaymentsTopic, Key: c.OrderID, Type: EventPaymentRefunded, Data: PaymentRefunded{
		Livemode: c.Livemode, OrderID: c.OrderID, SessionID: c.SessionID, RefundID: refundID, Amount: c.RefundAmount(), Currency: c.Currency, RefundedAt: now,
	}}}
}

// RefundError is a refund the payment provider did not make, as its adapter classified the
// answer (see the top of this file).
type RefundError struct {
	// Code is the provider's error code (charge_disputed), empty without one.
	Code string
	// Message describes the failure, safe to store and log: never a secret.
	Message string
	// Permanent is true when asking again cannot succeed until someone changes something at
	// the provider.
	Permanent bool
	// AlreadyRefunded is true when the provider answered that the payment was refunded already
	// (by an earlier attempt, or outside checkout).
	AlreadyRefunded bool
}

func (e *RefundError) Error() string { return e.Message }

// Backoff of a refund's temporary failures: the first retry RefundFirstRetry after the
// failure, doubling with each further one up to RefundMaxRetry (by default: see
// RefundRetryWait).
const (
	RefundFirstRetry = 10 * time.Second
	RefundMaxRetry   = 15 * time.Minute
)

// RefundRetryWait is how long to wait after a refund's attempts-th failed attempt: the
// backoff's step, at most ceiling (RefundMaxRetry unless configured otherwise), of which a
// share between a half and the whole is taken by jitter (in [0, 1)), so that refunds that
// failed together do not retry in step.
func RefundRetryWait(attempts int, jitter float64, ceiling time.Duration) time.Duration {
	d := ceiling
	if attempts < 20 {
		d = min(RefundFirstRetry<<max(attempts-1, 0), ceiling)
	}
	return d/2 + time.Duration(float64(d/2)*jitter)
}

// holdsClaim reports whether the refund is pending under claim, the latest a worker made.
func (c *Checkout) holdsClaim(claim int) bool { return c.RefundPending() && c.RefundClaim == claim }

// RefundRetryLater records a temporary failure of the attempt of claim: one more attempt
// failed, the next is due after wait. It reports whether the checkout changed: a refund no
// longer pending, or claimed again since, is left as it is.
func (c *Checkout) RefundRetryLater(claim int, e *RefundError, now time.Time, wait time.Duration) bool {
	if !c.holdsClaim(claim) {
		return false
	}
	next := now.Add(wait)
	c.RefundAttempts++
	c.RefundNextAttemptAt, c.RefundClaimedUntil = &next, nil
	c.RefundErrorCode, c.RefundErrorMessage = e.Code, e.Message
	return true
}

// RefundRefused records that the payment provider refused the refund of claim for good:
// REFUND_FAILED with its code and message, nothing more attempted. It reports whether the
// checkout changed: a refund no longer pending, or claimed again since, is left as it is.
func (c *Checkout) RefundRefused(claim int, e *RefundError, now time.Time) bool {
	if !c.holdsClaim(claim) {
		return false
	}
	c.RefundAttempts++
	c.RefundNextAttemptAt, c.RefundClaimedUntil, c.RefundFailedAt = nil, nil, &now
	c.RefundErrorCode, c.RefundErrorMessage = e.Code, e.Message
	c.set(StateRefundFailed, now)
	return true
}

// RetryRefund moves a refund the provider refused back to REFUND_PENDING, due at once and with
// its failures forgotten, once an operator fixed the cause at the provider: paymentIntent,
// when not empty, names the payment to refund, only where none is recorded (a typo must not
// refund another buyer). A checkout in another state, still without a payment, or recording
// another payment is refused (a conflict).
func (c *Checkout) RetryRefund(now time.Time, paymentIntent string) error {
	if c.State != StateRefundFailed {
		return fault.NewConflict(fmt.Sprintf("checkout %s is %s: only a refund in %s can be retried", c.ID, c.State, StateRefundFailed))
	}
	if paymentIntent != "" && !strings.HasPrefix(paymentIntent, "pi_") {
		return fault.NewConflict(fmt.Sprintf("%q is not a payment intent (pi_…)", paymentIntent))
	}
	if paymentIntent != "" && c.PaymentIntent != "" && paymentIntent != c.PaymentIntent {
		return fault.NewConflict(fmt.Sprintf("checkout %s records the payment %s: a payment is named only for a checkout that records none", c.ID, c.PaymentIntent))
	}
	c.notePaymentIntent(paymentIntent)
	if c.PaymentIntent == "" {
		return fault.NewConflict(fmt.Sprintf("checkout %s records no payment to refund: name it (--payment-intent pi_…)", c.ID))
	}
	c.dueForRefund(now)
	c.set(StateRefundPending, now)
	return nil
}

// maxRefundReference bounds the reference an operator gives a refund made outside checkout.
const maxRefundReference = 255

// ResolveRefund records that the payment of a refund that failed for good was returned outside
// checkout (refunded in the provider's dashboard, a dispute the buyer won, a bank transfer),
// with reference (the provider's refund id, or the transfer's), as Refunded does: the refunded
// state and payment.refunded, so registration's order reads REFUNDED. A checkout in another
// state, or a reference empty, too long or with control characters, is refused (a conflict).
func (c *Checkout) ResolveRefund(reference string, now time.Time) ([]Message, error) {
	if c.State != StateRefundFailed {
		return nil, fault.NewConflict(fmt.Sprintf("checkout %s is %s: only a refund in %s can be resolved", c.ID, c.State, StateRefundFailed))
	}
	if reference == "" || len(reference) > maxRefundReference || !safetext.Valid(reference) {
		return nil, fault.NewConflict(fmt.Sprintf("the refund's reference must be 1 to %d characters without control characters", maxRefundReference))
	}
	return c.Refunded(reference, now), nil
}
