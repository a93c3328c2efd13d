package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/system/stack"
)

const sessionsPath = "/v1/checkout/sessions"

// stripeSessions returns the Checkout Session requests that reached Stripe for an organizer.
func stripeSessions(org string) []stack.StripeCall {
	return sys.StripeCalls("POST", sessionsPath, org)
}

// stripeSessionOf returns the one Checkout Session request Stripe received for an order.
func stripeSessionOf(t *testing.T, org, orderID string) stack.StripeCall {
	t.Helper()
	var found []stack.StripeCall
	for _, c := range stripeSessions(org) {
		if c.Metadata("orderId") == orderID {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("Stripe received %d Checkout Session requests for order %s, want 1", len(found), orderID)
	}
	return found[0]
}

// stripeEvent is the event Stripe sends about the Checkout Session it opened for call (its
// metadata, client reference, amount and currency as checkout gave them), with its own
// event id. stripe-mock answers every session with the same id, so the session id is passed.
func stripeEvent(t *testing.T, typ string, call stack.StripeCall, sessionID string) []byte {
	t.Helper()
	status := "complete"
	if typ == "checkout.session.expired" {
		status = "expired"
	}
	session := stripeSession(call, sessionID, status)
	raw, err := json.Marshal(map[string]any{
		"id": "evt_" + randomID(), "object": "event", "api_version": stripego.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": typ, "data": map[string]any{"object": session},
	})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// stripeSession is the Checkout Session Stripe opened for call (its metadata, client reference,
// amount and currency as checkout gave them), settled: status "complete" (paid, with a
// payment intent) or "expired".
func stripeSession(call stack.StripeCall, sessionID, status string) map[string]any {
	meta := map[string]string{}
	for _, k := range []string{"orderId", "eventId", "organizerId", "checkoutId"} {
		meta[k] = call.Metadata(k)
	}
	session := map[string]any{
		"id": sessionID, "object": "checkout.session", "mode": "payment", "status": status, "payment_status": "unpaid",
		"metadata": meta, "client_reference_id": call.Form.Get("client_reference_id"), "payment_intent": nil,
		"amount_total": call.AmountTotal(), "currency": call.Form.Get("line_items[0][price_data][currency]"), "livemode": false,
	}
	if status == "complete" {
		session["payment_status"], session["payment_intent"] = "paid", "pi_"+randomID()
	}
	return session
}

// signed returns the Stripe-Signature header of payload signed with the stack's webhook secret
// at a time.
func signed(payload []byte, at time.Time) string {
	return signedWith(payload, sys.WebhookSecret, at)
}

func signedWith(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// deliver posts a webhook to the gateway's Stripe route as Stripe does.
func deliver(t *testing.T, payload []byte, signature string) response {
	t.Helper()
	h := map[string]string{}
	if signature != "" {
		h["Stripe-Signature"] = signature
	}
	return do(t, req{"POST", sys.GatewayURL() + "/webhooks/stripe", h, string(payload)})
}

// wantWebhook checks checkout acknowledged a delivery with the result given.
func wantWebhook(t *testing.T, res response, result string) {
	t.Helper()
	var b struct {
		Received bool   `json:"received"`
		Result   string `json:"result"`
	}
	if res.status != 200 || json.Unmarshal(res.body, &b) != nil || !b.Received || b.Result != result {
		t.Fatalf("webhook: %d %s, want 200 %q", res.status, res.body, result)
	}
}

func randomID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
