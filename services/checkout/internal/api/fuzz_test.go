package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apispec/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

// FuzzBrowserBodies sends arbitrary bodies to every operation with a body checkout routes (the
// summary and the session), with a valid identity token of a publishable key, through the
// service's Fiber app: never a 5xx; a refusal is the standard error body with a status the
// document gives the operation; a success is the body the document describes.
func FuzzBrowserBodies(f *testing.F) {
	env := start(f, checkouttest.Options{})
	ops := contracttest.WithBody(contracttest.Served(env.App))
	signed := checkouttest.Purchase()
	signed["idempotencyKey"] = "fuzz-key-0001"
	// PostgreSQL refuses U+0000 in text and jsonb: these answered 500 before the decoding
	// refused them.
	nul := checkouttest.Purchase()
	nul["purchaserName"], nul["idempotencyKey"], nul["ipEnrichment"] = "Ana \u0000", "fuzz-\u0000-key", map[string]any{"city": "\u0000"}
	for i, op := range ops {
		for _, seed := range contracttest.Seeds(op.ID, summaryBody(), checkouttest.Purchase(), signed, nul) {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := ops[int(opIndex)%len(ops)]
		p := identity.Principal{OrganizerID: checkouttest.OrgID, KeyID: checkouttest.KeyID, KeyType: identity.Publishable, Origin: checkouttest.Site}
		headers := map[string]string{identity.Header: env.Token(t, p), identity.HeaderClientIP: "203.0.113.9"}
		a := contracttest.Send(t, env.App, op.Method, contracttest.Path(op, nil), headers, body)
		if err := contracttest.Check(validator, op.ID, a); err != nil {
			t.Fatalf("%s %q: %v", op.ID, body, err)
		}
	})
}

// FuzzStripeWebhook sends arbitrary payloads to the Stripe webhook route, signed with the
// webhook secret so that they reach past the signature to the parsing and the handling, and
// the same payloads signed with another secret: a forged one is refused with 400; no answer is
// a 5xx but a 503 with Retry-After (which asks Stripe to deliver the event again later); a
// refusal is the standard error body, an acceptance {"received": true, "result": ...}.
func FuzzStripeWebhook(f *testing.F) {
	env := start(f, checkouttest.Options{})
	r := session(f, env, checkouttest.Purchase())
	if r.Status != http.StatusCreated {
		f.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	orderID := r.Body["orderId"].(string)
	known := checkouttest.StripeSession{CheckoutID: checkoutOfOrder(f, env, orderID), SessionID: r.Body["sessionId"].(string), OrderID: orderID,
		EventID: checkouttest.EventID, OrganizerID: checkouttest.OrgID, PaymentIntent: "pi_fuzz", Currency: "EUR", Amount: 5875}
	unknown := checkouttest.StripeSession{CheckoutID: "chk_nobody", SessionID: "cs_test_nobody"}
	at := time.Date(2027, 6, 1, 12, 0, 0, 0, time.UTC) // the events' "created" field: never compared with a clock
	for _, s := range []checkouttest.StripeSession{known, unknown} {
		for _, typ := range []string{"checkout.session.completed", "checkout.session.expired", "checkout.session.async_payment_succeeded", "checkout.session.async_payment_failed", "customer.created"} {
			for _, paid := range []bool{true, false} {
				f.Add(checkouttest.StripeEvent(f, typ, s, paid, at))
			}
		}
	}
	f.Add([]byte(`{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"id":5}}}`))
	f.Add([]byte(`{"id":"evt_2","type":"checkout.session.completed","data":{"object":null}}`))
	f.Add([]byte(`[]`))
	// These answered 500 before the webhook's parsing refused them: ids holding U+0000, which
	// PostgreSQL refuses in text, and an event without an id, which the inbox cannot record.
	f.Add([]byte(`{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"id":"cs_1","metadata":{"checkoutId":"chk_\u0000"}}}}`))
	f.Add([]byte(`{"id":"evt_\u0000","type":"checkout.session.completed","data":{"object":{"id":"cs_1","metadata":{"checkoutId":"chk_1"}}}}`))
	f.Add([]byte(`{"id":"evt_3","type":"checkout.session.completed","data":{"object":{"id":"cs_\u0000"}}}`))
	f.Add([]byte(`{"id":"","type":"checkout.session.completed","data":{"object":{"id":""}}}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		// Stripe's library checks the signature's age against the wall clock, so it is signed now.
		forged := env.Webhook(t, payload, stripeSignature(payload, "whsec_forged", time.Now()))
		if forged.Status != http.StatusBadRequest {
			t.Fatalf("a payload signed with another secret answered %d: %s", forged.Status, forged.Raw)
		}
		for _, a := range []testkit.Response{forged, env.SignedWebhook(t, payload, time.Now())} {
			if err := webhookAnswer(a); err != nil {
				t.Fatalf("%q: %v", payload, err)
			}
		}
	})
}

// webhookAnswer returns what is wrong with an answer of the webhook route.
func webhookAnswer(r testkit.Response) error {
	a := contracttest.Answer{Status: r.Status, Header: r.Header, Body: r.Raw}
	switch {
	case r.Status == http.StatusServiceUnavailable && r.Header.Get("Retry-After") != "":
		return contracttest.StandardError(a)
	case r.Status >= http.StatusInternalServerError:
		return fmt.Errorf("answered %d: %s", r.Status, r.Raw)
	case r.Status >= http.StatusMultipleChoices:
		return contracttest.StandardError(a)
	}
	var ok struct {
		Received bool   `json:"received"`
		Result   string `json:"result"`
	}
	d := json.NewDecoder(bytes.NewReader(r.Raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&ok); err != nil || !ok.Received || ok.Result == "" {
		return fmt.Errorf("answered %d with a body other than an acknowledgement: %s", r.Status, r.Raw)
	}
	return nil
}
