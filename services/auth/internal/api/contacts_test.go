package api_test

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// contacts asks for the organization's contacts as issuer acting for the principal's
// organizer.
func contacts(t *testing.T, env *authtest.Env, issuer, tokenOrg, pathOrg string) map[string]any {
	t.Helper()
	tok := env.Issuers.Token(t, issuer, identity.Auth, identity.Principal{OrganizerID: tokenOrg, KeyID: "notifier", KeyType: identity.Service})
	r := env.Do(t, http.MethodGet, "/internal/v1/organizers/"+pathOrg+"/contacts", nil, map[string]string{identity.Header: tok})
	return map[string]any{"status": r.Status, "body": r.Body, "raw": string(r.Raw)}
}

func TestContactsAreTheOwnersAndAdmins(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	r := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": "Trail Club", "owner": "zoe@trail.test"})
	org := r.Body["id"].(string)
	for email, role := range map[string]string{"bo@trail.test": "admin", "cy@trail.test": "member", "al@trail.test": "owner"} {
		if r := env.Admin(t, http.MethodPost, "/admin/organizers/"+org+"/members", map[string]any{"email": email, "role": role}); r.Status != http.StatusCreated {
			t.Fatalf("add %s: %d %s", email, r.Status, r.Raw)
		}
	}
	other := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": "Rival", "owner": "spy@rival.test"}).Body["id"].(string)

	got := contacts(t, env, identity.Webhooks, org, org)
	if got["status"] != http.StatusOK {
		t.Fatalf("contacts: %v", got)
	}
	want := `{"data":[{"email":"al@trail.test","role":"owner"},{"email":"zoe@trail.test","role":"owner"},{"email":"bo@trail.test","role":"admin"}]}`
	if got["raw"] != want {
		t.Fatalf("contacts:\n got %s\nwant %s", got["raw"], want)
	}

	for name, c := range map[string]struct {
		issuer, tokenOrg, pathOrg string
		status                    int
	}{
		"another organizer's path":       {identity.Webhooks, org, other, http.StatusNotFound},
		"an unknown organizer":           {identity.Webhooks, "org_unknown", "org_unknown", http.StatusNotFound},
		"a token naming no organizer":    {identity.Webhooks, "", org, http.StatusForbidden},
		"the gateway's token":            {identity.Gateway, org, org, http.StatusForbidden},
		"checkout's token":               {identity.Checkout, org, org, http.StatusForbidden},
		"the console's own issuer, auth": {identity.Auth, org, org, http.StatusForbidden},
	} {
		if got := contacts(t, env, c.issuer, c.tokenOrg, c.pathOrg); got["status"] != c.status {
			t.Errorf("%s: %v, want %d", name, got, c.status)
		}
	}
	secret := env.Issuers.Token(t, identity.Webhooks, identity.Auth, identity.Principal{OrganizerID: org, KeyID: "key_1", KeyType: identity.Secret})
	wantError(t, env.Do(t, http.MethodGet, "/internal/v1/organizers/"+org+"/contacts", nil, map[string]string{identity.Header: secret}),
		http.StatusForbidden, "this route does not accept secret credentials")
	wantError(t, env.Do(t, http.MethodGet, "/internal/v1/organizers/"+org+"/contacts", nil, nil), http.StatusUnauthorized, nil)
}

// TestTheGatewaysRoutesRefuseTheWebhooksService: the webhooks service is trusted for its own
// route only.
func TestTheGatewaysRoutesRefuseTheWebhooksService(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	tok := env.Issuers.Token(t, identity.Webhooks, identity.Auth, identity.Principal{KeyID: "webhooks", KeyType: identity.Service})
	for _, path := range []string{"/internal/keys/verify", "/internal/origins/check"} {
		wantError(t, env.Do(t, http.MethodPost, path, map[string]any{"origin": "https://shop.example"}, map[string]string{identity.Header: tok}),
			http.StatusForbidden, "this route does not accept calls from webhooks")
	}
}
