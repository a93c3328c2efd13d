package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

// TestRoutesAcceptOnlyTheGateway sends checkout's routes tokens that a trusted service signed
// but that they must refuse: only the gateway routes browsers and Stripe's webhook here.
func TestRoutesAcceptOnlyTheGateway(t *testing.T) {
	env := start(t, checkouttest.Options{})
	browser := identity.Principal{OrganizerID: checkouttest.OrgID, KeyID: checkouttest.KeyID, KeyType: identity.Publishable, Origin: checkouttest.Site}
	webhook := identity.Principal{KeyID: "stripe-webhook", KeyType: identity.Service}
	routes := []struct {
		path string
		p    identity.Principal
		body any
	}{
		{"/external/v1/browser/checkout/registration/summary", browser, summaryBody()},
		{"/external/v1/browser/checkout/registration/session", browser, checkouttest.Purchase()},
		{"/webhooks/stripe", webhook, json.RawMessage(`{}`)},
	}
	for _, rt := range routes {
		for _, c := range []struct {
			token   string
			status  int
			message string
		}{
			{env.Issuers.Token(t, identity.Registration, identity.Checkout, rt.p), 403, "this route does not accept calls from registration"},
			{env.Issuers.Token(t, identity.Checkout, identity.Checkout, rt.p), 403, "this route does not accept calls from checkout"},
			{env.Issuers.Token(t, identity.Gateway, identity.Registration, rt.p), 401, "the internal identity token is invalid or expired"},
		} {
			wantError(t, env.Do(t, http.MethodPost, rt.path, rt.body, map[string]string{identity.Header: c.token}), c.status, c.message)
		}
	}
	if env.Catalog.Calls.Load() != 0 || env.Registration.HoldCalls.Load() != 0 {
		t.Fatal("a refused request reached checkout's peers")
	}
}

// TestPeersAreCalledAsCheckoutForThePurchasesOrganizer checks what checkout's peers see: its
// own tokens (the doubles refuse any other issuer, or a token naming no organizer) on behalf of
// the organizer whose key started the purchase, so registration holds places for that one.
func TestPeersAreCalledAsCheckoutForThePurchasesOrganizer(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "callers-0001"
	if r := session(t, env, b); r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	o, ok := env.Registration.LastOrder()
	if !ok || o.Organizer != checkouttest.OrgID {
		t.Fatalf("the hold was made for %q, want %s", o.Organizer, checkouttest.OrgID)
	}
	// Another organizer's key finds neither the event nor the order.
	other := env.Token(t, identity.Principal{OrganizerID: checkouttest.OtherOrgID, KeyID: "key_pub_9", KeyType: identity.Publishable, Origin: checkouttest.Site})
	b["idempotencyKey"] = "callers-0002"
	r := env.Do(t, http.MethodPost, "/external/v1/browser/checkout/registration/session", b, map[string]string{identity.Header: other})
	if r.Status != http.StatusNotFound {
		t.Fatalf("another organizer's session: %d %s", r.Status, r.Raw)
	}
	if env.Registration.HoldCalls.Load() != 1 {
		t.Fatalf("%d holds, want 1", env.Registration.HoldCalls.Load())
	}
}
