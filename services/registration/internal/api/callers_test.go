package api_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestHoldRoutesAcceptOnlyCheckoutForItsOrganizer sends the internal hold routes tokens that a
// trusted service signed but that they must refuse: the gateway's and registration's own (only
// checkout holds places), checkout's token for another service, and checkout's token naming no
// organizer, which would otherwise release any organizer's order. Checkout's token
// for another organizer finds nothing of this one's.
func TestHoldRoutesAcceptOnlyCheckoutForItsOrganizer(t *testing.T) {
	env := start(t, regtest.Options{})
	buyer := identity.Principal{OrganizerID: orgA, KeyID: "key_pk_" + orgA, KeyType: identity.Publishable}
	checkoutA := env.Issuers.Token(t, identity.Checkout, identity.Registration, buyer)
	r := env.Do(t, "POST", "/internal/holds", holdBody("callers-1", time.Now().Add(time.Hour), holdReg("Ana")), checkoutA)
	if r.Status != 201 {
		t.Fatalf("checkout's hold for the organizer: %d %s", r.Status, r.Raw)
	}
	order := r.Body["orderId"].(string)

	routes := []struct {
		path string
		body map[string]any
	}{
		{"/internal/holds", holdBody("callers-2", time.Now().Add(time.Hour), holdReg("Bea"))},
		{"/internal/holds/" + order + "/release", map[string]any{"reason": "CANCELLED"}},
	}
	service := identity.Principal{KeyID: "checkout", KeyType: identity.Service}
	for _, c := range []struct {
		name, token string
		status      int
		message     string
	}{
		{"the gateway's token", env.Issuers.Token(t, identity.Gateway, identity.Registration, buyer), 403, "this route does not accept calls from gateway"},
		{"registration's own token", env.Issuers.Token(t, identity.Registration, identity.Registration, buyer), 403, "this route does not accept calls from registration"},
		{"checkout's token for the catalog", env.Issuers.Token(t, identity.Checkout, identity.Catalog, buyer), 401, "the internal identity token is invalid or expired"},
		{"checkout's token without an organizer", env.Issuers.Token(t, identity.Checkout, identity.Registration, service), 403, "this route needs an identity that names an organizer"},
	} {
		for _, rt := range routes {
			t.Run(c.name+" "+rt.path, func(t *testing.T) {
				wantError(t, env.Do(t, "POST", rt.path, rt.body, c.token), c.status, c.message)
			})
		}
	}

	other := buyer
	other.OrganizerID, other.KeyID = orgB, "key_pk_"+orgB
	checkoutB := env.Issuers.Token(t, identity.Checkout, identity.Registration, other)
	wantError(t, env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "CANCELLED"}, checkoutB), 404, "not found")
	if s := orderStatus(t, env, order); s != "PENDING" {
		t.Fatalf("the refused calls left the order %s", s)
	}
	if c := env.Do(t, "POST", "/internal/holds/"+order+"/release", map[string]any{"reason": "CANCELLED"}, checkoutA); c.Status != 200 {
		t.Fatalf("checkout's release for the organizer: %d %s", c.Status, c.Raw)
	}
}
