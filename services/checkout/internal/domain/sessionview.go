package domain

import "time"

// Statuses of a checkout session as organizers see it.
const (
	SessionStatusExpired = "EXPIRED"
	SessionStatusFailed  = "FAILED"
)

// CheckoutSession is a checkout as an organizer's integration sees it: the buyer's session,
// its order and what it asked to be paid. It carries no secret, no payment-provider
// reference beyond the session id and nothing of the buyer.
type CheckoutSession struct {
	SessionID   string    `json:"sessionId"`
	OrderID     string    `json:"orderId"`
	EventID     string    `json:"eventId"`
	Status      string    `json:"status"`
	AmountTotal int64     `json:"amountTotal"`
	Currency    string    `json:"currency"`
	CreatedAt   time.Time `json:"createdAt"`
	// ExpiresAt is when the session expires (or expired); nil when the payment provider's
	// outcome arrived before the session was recorded.
	ExpiresAt *time.Time `json:"expiresAt"`
}

// sessionView is the checkout as a CheckoutSession with status, after a payment outcome e.
func (c *Checkout) sessionView(e PaymentEvent, status string) CheckoutSession {
	v := CheckoutSession{
		SessionID: c.sessionID(e), OrderID: c.OrderID, EventID: c.EventID, Status: status,
		AmountTotal: c.Total, Currency: c.Currency, CreatedAt: c.CreatedAt.UTC(),
	}
	if c.SessionExpiresAt != nil {
		exp := c.SessionExpiresAt.UTC()
		v.ExpiresAt = &exp
	}
	return v
}
