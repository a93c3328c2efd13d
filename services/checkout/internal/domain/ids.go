package domain

import "github.com/podiumhq/podium/libs/ids"

// Id prefixes of what checkout issues.
const (
	// CheckoutIDPrefix starts the id of a checkout record (one attempt to buy).
	CheckoutIDPrefix = "chk_"
	// FreeSessionIDPrefix starts the session id of a zero-total checkout (no Stripe session).
	FreeSessionIDPrefix = "free_"
)

// NewCheckoutID returns a new random checkout id.
func NewCheckoutID() string { return ids.New(CheckoutIDPrefix) }

// NewFreeSessionID returns a new random session id for a zero-total checkout.
func NewFreeSessionID() string { return ids.New(FreeSessionIDPrefix) }
