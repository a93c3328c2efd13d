package checkouttest

import (
	"cmp"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76"
)

// StripeSession is what a Stripe event says about a Checkout Session; empty fields are left
// out, but for a payment intent, which is made up.
type StripeSession struct {
	CheckoutID, SessionID, OrderID, EventID, OrganizerID string
	PaymentIntent, Currency                              string
	Amount                                               int64
}

// StripeEvent is a Stripe event of type typ about s created at, shaped as Stripe sends it (the
// fields checkout reads, and the usual envelope), with an event id of its own: an expired
// session is unpaid and has no payment intent; a completed one is paid unless paid is false
// (a delayed payment method), and an async_payment_failed one never is.
func StripeEvent(t testing.TB, typ string, s StripeSession, paid bool, at time.Time) []byte {
	t.Helper()
	status, paymentStatus := "complete", "paid"
	switch {
	case typ == "checkout.session.expired":
		status, paymentStatus = "expired", "unpaid"
	case typ == "checkout.session.async_payment_failed" || (typ == "checkout.session.completed" && !paid):
		paymentStatus = "unpaid"
	}
	meta := map[string]string{}
	for k, v := range map[string]string{"checkoutId": s.CheckoutID, "orderId": s.OrderID, "eventId": s.EventID, "organizerId": s.OrganizerID} {
		if v != "" {
			meta[k] = v
		}
	}
	object := map[string]any{"id": s.SessionID, "object": "checkout.session", "mode": "payment", "status": status,
		"payment_status": paymentStatus, "metadata": meta, "livemode": false, "created": at.Unix()}
	if s.OrderID != "" {
		object["client_reference_id"] = s.OrderID
	}
	if s.Currency != "" {
		object["currency"], object["amount_total"] = strings.ToLower(s.Currency), s.Amount
	}
	if typ != "checkout.session.expired" {
		object["payment_intent"] = cmp.Or(s.PaymentIntent, "pi_test_"+rand.Text())
	}
	raw, err := json.Marshal(map[string]any{"id": "evt_test_" + rand.Text(), "object": "event", "api_version": stripe.APIVersion,
		"created": at.Unix(), "livemode": false, "type": typ, "data": map[string]any{"object": object}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
