package domain

import (
	"fmt"
	"strings"
	"time"
)

// A refund is made in three steps, so that no call to the payment provider runs while the
// checkout's row is locked: the decision is recorded (REFUND_PENDING, with its reason and the
// payment to refund) in the transaction of the event that calls for it; the provider is asked
// outside it, with an idempotency key derived from the order (Refund), so that every retry of
// a pending refund gets the first one's answer; the refund is recorded (Refunded), with
// payment.refunded, in a transaction of its own.

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
	c.set(StateRefundPending, now)
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
	c.RefundID = refundID
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
