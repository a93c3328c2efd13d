// Package stripeevent builds the Stripe events about a Checkout Session that checkout's webhook
// reads, shaped as Stripe sends them, for tests and the local stack's stripe-trigger.
package stripeevent

import (
	"cmp"
	"crypto/rand"
	"encoding/json"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
)

// Session is what an event says about a Checkout Session; empty fields are left out, but for
// a payment intent, which is made up.
type Session struct {
	CheckoutID, SessionID, OrderID, EventID, OrganizerID string
	PaymentIntent, Currency                              string
	Amount                                               int64
}

// Build is the event of type typ about s created at, with an event id of its own: an expired
// session is unpaid and has no payment intent; a completed one is paid unless paid is false (a
// delayed payment method), and an async_payment_failed one never is.
func Build(typ string, s Session, paid bool, at time.Time) ([]byte, error) {
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
	return json.Marshal(map[string]any{"id": "evt_test_" + rand.Text(), "object": "event", "api_version": stripe.APIVersion,
		"created": at.Unix(), "livemode": false, "pending_webhooks": 1, "type": typ, "data": map[string]any{"object": object},
		"request": map[string]any{"id": nil, "idempotency_key": nil}})
}
