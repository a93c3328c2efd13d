package checkouttest

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/payments"
)

// StripeSession is what a Stripe event says about a Checkout Session.
type StripeSession = payments.EventSession

// StripeEvent is the live-mode Stripe event of type typ about s created at (payments.Event).
func StripeEvent(t testing.TB, typ string, s StripeSession, paid bool, at time.Time) []byte {
	t.Helper()
	return stripeEvent(t, typ, s, paid, true, at)
}

// StripeTestEvent is StripeEvent in test mode (livemode false).
func StripeTestEvent(t testing.TB, typ string, s StripeSession, paid bool, at time.Time) []byte {
	t.Helper()
	return stripeEvent(t, typ, s, paid, false, at)
}

func stripeEvent(t testing.TB, typ string, s StripeSession, paid, livemode bool, at time.Time) []byte {
	t.Helper()
	raw, err := payments.Event(typ, s, paid, livemode, at)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
