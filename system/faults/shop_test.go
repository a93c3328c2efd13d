package faults

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/system/stack"
)

// site is the origin of the shops' websites.
const site = "https://shop.faults.example"

// shop is an organizer of a scenario's own selling one event on its website, so that each
// scenario counts only its own orders.
type shop struct {
	org         string
	secret      stack.Key
	publishable stack.Key
	event       stack.Event
	cat         string
	seq         atomic.Int64
}

// newShop creates an organizer, its keys and a published event of one-athlete registrations;
// quota limits its places (0: unlimited).
func newShop(t *testing.T, quota int) *shop {
	t.Helper()
	ctx := t.Context()
	org, err := sys.CreateOrganizer(ctx, t.Name(), "")
	if err != nil {
		t.Fatal(err)
	}
	s := &shop{org: org}
	if s.secret, err = sys.CreateKey(ctx, org, stack.KeySpec{Type: "secret", Name: "backend", Scopes: stack.AllScopes}); err != nil {
		t.Fatal(err)
	}
	if s.publishable, err = sys.CreateKey(ctx, org, stack.KeySpec{Type: "publishable", Name: "site", Origins: []string{site}}); err != nil {
		t.Fatal(err)
	}
	s.event, s.cat = importEvent(t, org, "faults", quota)
	return s
}

// importEvent imports a published event of the organizer with one category of one-athlete
// registrations, whose places quota limits (0: unlimited), and returns it and the category.
func importEvent(t *testing.T, org, externalID string, quota int) (stack.Event, string) {
	t.Helper()
	open := map[string]any{"key": "open", "name": "Open", "basePrice": 4500}
	if quota > 0 {
		open["quota"] = quota
	}
	event, err := sys.ImportEventDoc(t.Context(), org, map[string]any{
		"externalId": externalID, "name": "Faults Open", "status": "PUBLISHED",
		"startDate": "2027-10-02", "endDate": "2027-10-03", "timezone": "Europe/Madrid", "currency": "EUR",
		"categories": []any{open},
	})
	if err != nil {
		t.Fatal(err)
	}
	return event, event.Category("open")
}

// otherEvent returns a shop of the same organizer and keys selling another event, of its own
// quota, so that its purchases are counted apart.
func (s *shop) otherEvent(t *testing.T, externalID string, quota int) *shop {
	t.Helper()
	o := &shop{org: s.org, secret: s.secret, publishable: s.publishable}
	o.event, o.cat = importEvent(t, s.org, externalID, quota)
	o.seq.Store(1_000_000) // its teams and client addresses apart from s's
	return o
}

// purchase is one buyer's attempt: a team of its own and the idempotencyKey its retries carry.
type purchase struct {
	team, key string
	// visitor is the buyer's client address (X-Forwarded-For).
	visitor string
	// orderID and sessionID are from the session's answer.
	orderID, sessionID string
}

// newPurchase returns the next buyer of the shop.
func (s *shop) newPurchase() *purchase {
	n := s.seq.Add(1)
	return &purchase{
		team: fmt.Sprintf("Team %06d", n), key: "faults-" + randomHex(8),
		visitor: fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255),
	}
}

// sessionRequest is the checkout-session request of p.
func (s *shop) sessionRequest(p *purchase) request {
	body, _ := json.Marshal(map[string]any{
		"eventId": s.event.ID, "categoryId": s.cat, "teamName": p.team, "idempotencyKey": p.key,
		"athletes": []any{map[string]any{"fullname": "Ana " + p.team, "idNumber": "X1234567", "email": "ana@example.com",
			"phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-04-01"}},
		"termsAccepted": true, "purchaserEmail": "buyer-" + p.key + "@example.com", "purchaserName": "Ana Atleta",
		"successUrl": site + "/thanks", "cancelUrl": site + "/cart",
	})
	return request{method: "POST", path: "/external/v1/browser/checkout/registration/session", body: body,
		headers: map[string]string{"x-publishable-key": s.publishable.Key, "Origin": site, "X-Forwarded-For": p.visitor}}
}

// searchRequest is an organizer's read of its registrations.
func (s *shop) searchRequest() request {
	body, _ := json.Marshal(map[string]any{"eventId": s.event.ID, "limit": 5})
	return request{method: "POST", path: "/external/v1/organizer/registrations/search", body: body,
		headers: map[string]string{"Authorization": "Bearer " + s.secret.Key}}
}

// paidEvent is the checkout.session.completed event Stripe sends once the buyer of p paid: the
// metadata, amount and currency of the session checkout opened for p's order, a fresh event id.
func paidEvent(t testing.TB, p *purchase) (id string, payload []byte) {
	return sessionEvent(t, p, "checkout.session.completed", "pi_"+randomHex(12))
}

// expiredEvent is the checkout.session.expired event Stripe sends once p's session expired
// unpaid.
func expiredEvent(t testing.TB, p *purchase) (id string, payload []byte) {
	return sessionEvent(t, p, "checkout.session.expired", "")
}

// sessionEvent is the event of type typ about the session checkout opened for p's order, paid
// with the payment intent paymentIntent (unpaid and expired without one), with a fresh id.
func sessionEvent(t testing.TB, p *purchase, typ, paymentIntent string) (id string, payload []byte) {
	call, ok := sys.StripeSession(p.orderID)
	if !ok {
		t.Errorf("Stripe never received a Checkout Session for order %s", p.orderID)
		return "", nil
	}
	meta := map[string]string{}
	for _, k := range []string{"orderId", "eventId", "organizerId", "checkoutId"} {
		meta[k] = call.Metadata(k)
	}
	session := map[string]any{
		"id": p.sessionID, "object": "checkout.session", "mode": "payment", "status": "complete", "payment_status": "paid",
		"metadata": meta, "client_reference_id": call.Form.Get("client_reference_id"), "payment_intent": paymentIntent,
		"amount_total": call.AmountTotal(), "currency": call.Form.Get("line_items[0][price_data][currency]"), "livemode": false,
	}
	if paymentIntent == "" {
		session["status"], session["payment_status"], session["payment_intent"] = "expired", "unpaid", nil
	}
	id = "evt_" + randomHex(12)
	payload, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripego.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": typ, "data": map[string]any{"object": session},
	})
	if err != nil {
		t.Error(err)
	}
	return id, payload
}

// webhookRequest is a delivery of payload signed at a time with secret, as Stripe posts it.
func webhookRequest(payload []byte, secret string, at time.Time) request {
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
	return request{method: "POST", path: "/webhooks/stripe", body: payload,
		headers: map[string]string{"Stripe-Signature": sig, "X-Forwarded-For": "3.18.12.63"}}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
