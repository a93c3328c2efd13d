package e2e

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/system/stack"
)

// TestOwnersRefuseRequestsWithoutTheInternalToken calls each owner directly, bypassing the
// gateway, with and without a forged token.
func TestOwnersRefuseRequestsWithoutTheInternalToken(t *testing.T) {
	forged := "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJrZXkiOiJrIiwidHlwIjoic2VjcmV0In0.c2lnbmF0dXJl"
	cases := []struct{ service, method, path string }{
		{"catalog", "POST", "/external/v1/organizer/events/search"},
		{"catalog", "GET", "/external/v1/browser/events/evt_1"},
		{"registration", "POST", "/external/v1/organizer/registrations/search"},
		{"checkout", "POST", "/external/v1/browser/checkout/registration/session"},
		{"checkout", "POST", "/webhooks/stripe"},
		{"auth", "POST", "/internal/keys/verify"},
	}
	for _, tc := range cases {
		t.Run(tc.service+tc.path, func(t *testing.T) {
			url := sys.URLs[tc.service] + tc.path
			direct := do(t, req{tc.method, url, secret(demo.SecretAll.Key), "{}"})
			wantError(t, direct, 401, "reached through the gateway only")
			wantCode(t, direct, 401, "unauthorized")
			wantError(t, do(t, req{tc.method, url, map[string]string{"X-Podium-Identity": forged}, "{}"}), 401, "invalid or expired")
		})
	}
}

// TestTokensAreForOneServiceFromItsCallers replays tokens the gateway signs against services
// and routes they were not meant for, as a caller inside the network could: a token is good for
// the one service it names, and internal routes refuse the gateway, which never calls them.
func TestTokensAreForOneServiceFromItsCallers(t *testing.T) {
	p := identity.Principal{OrganizerID: demo.OrganizerID, KeyID: demo.Publishable.ID, KeyType: identity.Publishable, Origin: stack.DemoOrigin}
	token := func(audience string) map[string]string {
		tok, err := sys.IdentityToken(audience, p)
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{identity.Header: tok}
	}
	event := demo.Events["summer-throwdown"].ID
	search := req{"POST", sys.URLs["catalog"] + "/external/v1/browser/events/search", token(identity.Catalog), "{}"}
	if res := do(t, search); res.status != http.StatusCreated {
		t.Fatalf("the catalog's own token: %d %s", res.status, res.body)
	}
	lookup := "/external/v1/browser/events/" + event + "/registration-receipts/lookup"
	wantError(t, do(t, req{"POST", sys.URLs["registration"] + lookup, token(identity.Catalog), `{"email":"a@example.com"}`}), 401, "invalid or expired")
	wantError(t, do(t, req{"POST", sys.URLs["checkout"] + "/external/v1/browser/checkout/registration/summary", token(identity.Catalog), "{}"}), 401, "invalid or expired")
	wantError(t, do(t, req{"POST", sys.URLs["auth"] + "/internal/origins/check", token(identity.Catalog), `{"origin":"https://a.example"}`}), 401, "invalid or expired")
	wrongCaller := do(t, req{"GET", sys.URLs["catalog"] + "/internal/events/" + event, token(identity.Catalog), nil})
	wantError(t, wrongCaller, 403, "does not accept calls from gateway")
	wantCode(t, wrongCaller, 403, "forbidden")
	wantError(t, do(t, req{"POST", sys.URLs["registration"] + "/internal/holds/ord_x/release", token(identity.Registration), `{"reason":"CANCELLED"}`}), 403, "does not accept calls from gateway")
}
