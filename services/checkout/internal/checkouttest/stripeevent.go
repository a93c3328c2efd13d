package checkouttest

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit/stripeevent"
)

// StripeSession is what a Stripe event says about a Checkout Session.
type StripeSession = stripeevent.Session

// StripeEvent is the Stripe event of type typ about s created at (stripeevent.Build).
func StripeEvent(t testing.TB, typ string, s StripeSession, paid bool, at time.Time) []byte {
	t.Helper()
	raw, err := stripeevent.Build(typ, s, paid, at)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
