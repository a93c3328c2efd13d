package domain

import (
	"strings"
	"time"
)

// ProviderRefund is a refund the payment provider lists for a payment.
type ProviderRefund struct {
	ID            string
	PaymentIntent string
	// Status is the provider's: pending, requires_action, succeeded, failed or canceled.
	Status string
	// Amount is in minor units of Currency (ISO 4217, any case).
	Amount   int64
	Currency string
	Created  time.Time
	// CheckoutID is the checkout its metadata names (checkout's own refunds), empty otherwise.
	CheckoutID string
	// RefundID is the organizer's refund its metadata names, empty otherwise.
	RefundID string
}

// Statuses of a refund that returned nothing and never will.
const (
	RefundStatusFailed   = "failed"
	RefundStatusCanceled = "canceled"
)

// returns reports whether the refund returned the money or is on its way to.
func (r ProviderRefund) returns() bool {
	return r.Status != RefundStatusFailed && r.Status != RefundStatusCanceled
}

// RefundFound says how the refund of a checkout was found among its payment's refunds.
type RefundFound int

// How a refund was found.
const (
	// RefundNotFound: nothing returns the payment yet; the refund is to be asked for.
	RefundNotFound RefundFound = iota
	// RefundFoundOurs: an earlier attempt made it (its metadata names the checkout).
	RefundFoundOurs
	// RefundFoundInFull: refunds made outside checkout (the provider's dashboard) return the
	// whole payment; the newest stands for the refund.
	RefundFoundInFull
)

// RefundAmong finds, among the refunds the provider lists for the checkout's payment, the one
// that makes the checkout's refund: one naming the checkout that has not failed or been
// canceled (an earlier attempt's, whose answer was lost or failed after it was made); else,
// when such refunds of the payment in the checkout's currency add up to what was paid, the
// newest of them (someone refunded the payment in full; the buyer has the money). Refunds of
// another payment never count (a provider's test double may list them), nor do amounts in
// another currency toward the whole.
func (c *Checkout) RefundAmong(listed []ProviderRefund) (ProviderRefund, RefundFound) {
	var newest ProviderRefund
	var returned int64
	for _, r := range listed {
		if r.PaymentIntent != c.PaymentIntent || c.PaymentIntent == "" || !r.returns() {
			continue
		}
		if r.CheckoutID == c.ID {
			return r, RefundFoundOurs
		}
		if !strings.EqualFold(r.Currency, c.Currency) {
			continue
		}
		returned += r.Amount
		if newest.ID == "" || r.Created.After(newest.Created) {
			newest = r
		}
	}
	if newest.ID != "" && returned >= c.RefundAmount() {
		return newest, RefundFoundInFull
	}
	return ProviderRefund{}, RefundNotFound
}
