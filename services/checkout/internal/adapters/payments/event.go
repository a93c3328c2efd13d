package payments

import (
	"cmp"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// EventSession is what a Stripe event says about a Checkout Session; empty fields are left
// out, but for a payment intent, which is made up.
type EventSession struct {
	CheckoutID, SessionID, OrderID, EventID, OrganizerID string
	PaymentIntent, Currency                              string
	Amount                                               int64
}

// Event is the Stripe event of type typ about s created at, with an event id of its own, shaped
// as Stripe sends it (livemode as given): an expired session is unpaid and has no payment
// intent; a completed one is paid unless paid is false (a delayed payment method), and an
// async_payment_failed one never is. Test outcomes use it, and so do the tests.
func Event(typ string, s EventSession, paid, livemode bool, at time.Time) ([]byte, error) {
	status, paymentStatus := "complete", "paid"
	switch {
	case typ == string(domain.PaymentExpired):
		status, paymentStatus = "expired", "unpaid"
	case typ == string(domain.PaymentAsyncFailed) || (typ == string(domain.PaymentCompleted) && !paid):
		paymentStatus = "unpaid"
	}
	meta := map[string]string{}
	for k, v := range map[string]string{"checkoutId": s.CheckoutID, "orderId": s.OrderID, "eventId": s.EventID, "organizerId": s.OrganizerID} {
		if v != "" {
			meta[k] = v
		}
	}
	object := map[string]any{"id": s.SessionID, "object": "checkout.session", "mode": "payment", "status": status,
		"payment_status": paymentStatus, "metadata": meta, "livemode": livemode, "created": at.Unix()}
	if s.OrderID != "" {
		object["client_reference_id"] = s.OrderID
	}
	if s.Currency != "" {
		object["currency"], object["amount_total"] = strings.ToLower(s.Currency), s.Amount
	}
	if typ != string(domain.PaymentExpired) {
		object["payment_intent"] = cmp.Or(s.PaymentIntent, "pi_test_"+rand.Text())
	}
	return json.Marshal(map[string]any{"id": "evt_test_" + rand.Text(), "object": "event", "api_version": stripe.APIVersion,
		"created": at.Unix(), "livemode": livemode, "pending_webhooks": 1, "type": typ, "data": map[string]any{"object": object},
		"request": map[string]any{"id": nil, "idempotency_key": nil}})
}

// SignedEvent is the event of kind Stripe would send about c's session (a completed one paid
// in full), created at, and its Stripe-Signature header with this client's webhook secret,
// signed at signedAt.
func (c *Client) SignedEvent(kind domain.PaymentEventKind, chk domain.Checkout, at, signedAt time.Time) ([]byte, string, error) {
	payload, err := Event(string(kind), EventSession{
		CheckoutID: chk.ID, SessionID: chk.SessionID, OrderID: chk.OrderID, EventID: chk.EventID, OrganizerID: chk.OrganizerID,
		PaymentIntent: chk.PaymentIntent, Currency: chk.Currency, Amount: chk.Total,
	}, true, chk.Livemode, at)
	if err != nil {
		return nil, "", fmt.Errorf("stripe event: %w", err)
	}
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: c.webhookSecret, Timestamp: signedAt})
	return payload, signed.Header, nil
}
