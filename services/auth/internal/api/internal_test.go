package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestInternalRoutesRequireAServiceIdentity(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	body := map[string]any{"keyHash": apikey.Hash("x")}
	for _, path := range []string{"/internal/keys/verify", "/internal/origins/check"} {
		wantError(t, env.Do(t, http.MethodPost, path, body, nil), http.StatusUnauthorized, nil)
		wantError(t, env.Do(t, http.MethodPost, path, body, map[string]string{identity.Header: "not-a-token"}), http.StatusUnauthorized, nil)
		wantError(t, env.Do(t, http.MethodPost, path, body, map[string]string{
			"Authorization": "Bearer " + authtest.OperatorToken,
		}), http.StatusUnauthorized, nil)
		for _, typ := range []identity.KeyType{identity.Secret, identity.Publishable} {
			tok := env.Token(t, identity.Principal{OrganizerID: "org_1", KeyID: "key_1", KeyType: typ})
			wantError(t, env.Do(t, http.MethodPost, path, body, map[string]string{identity.Header: tok}),
				http.StatusForbidden, "this route does not accept "+string(typ)+" credentials")
		}
	}
}

// TestInternalRoutesAcceptOnlyTheGateway sends auth tokens that a trusted service signed but
// that are not the gateway's calls to auth: each is refused, and the gateway's own call works.
func TestInternalRoutesAcceptOnlyTheGateway(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	service := identity.Principal{KeyID: "gateway", KeyType: identity.Service}
	body := map[string]any{"origin": "https://shop.example"}
	for name, c := range map[string]struct {
		token  string
		status int
		msg    string
	}{
		"checkout's token":                {env.Issuers.Token(t, identity.Checkout, identity.Auth, service), http.StatusForbidden, "this route does not accept calls from checkout"},
		"registration's token":            {env.Issuers.Token(t, identity.Registration, identity.Auth, service), http.StatusForbidden, "this route does not accept calls from registration"},
		"the gateway's token for catalog": {env.Issuers.Token(t, identity.Gateway, identity.Catalog, service), http.StatusUnauthorized, "the internal identity token is invalid or expired"},
	} {
		for _, path := range []string{"/internal/keys/verify", "/internal/origins/check"} {
			r := env.Do(t, http.MethodPost, path, body, map[string]string{identity.Header: c.token})
			if r.Status != c.status || r.Body["message"] != c.msg {
				t.Errorf("%s on %s: %d %s, want %d %q", name, path, r.Status, r.Raw, c.status, c.msg)
			}
		}
	}
	if r := env.Internal(t, "/internal/origins/check", body); r.Status != http.StatusOK {
		t.Fatalf("the gateway's call: %d %s", r.Status, r.Raw)
	}
}

func TestVerifyKey(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	sk := env.Key(t, org, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"pricing:read"}})
	pk := env.Key(t, org, map[string]any{"type": "publishable", "name": "site", "allowedOrigins": []string{"https://shop.example"},
		"expiresAt": env.Clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)})

	r := env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(sk["key"].(string))})
	if r.Status != http.StatusOK || r.Body["id"] != sk["id"] || r.Body["organizerId"] != org || r.Body["type"] != "secret" ||
		r.Body["expiresAt"] != nil || r.Body["revokedAt"] != nil {
		t.Fatalf("verify secret: %d %s", r.Status, r.Raw)
	}
	wantStrings(t, "scopes", r.Body["scopes"], "pricing:read")
	wantStrings(t, "allowedOrigins", r.Body["allowedOrigins"])
	if _, leaked := r.Body["keyHash"]; leaked {
		t.Fatal("verify echoes the hash")
	}

	if err := env.Service.FlushKeyUses(t.Context()); err != nil {
		t.Fatal(err)
	}
	list := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys", nil)
	for _, k := range list.Body["data"].([]any) {
		k := k.(map[string]any)
		if used := k["lastUsedAt"] != nil; used != (k["id"] == sk["id"]) {
			t.Fatalf("key %v lastUsedAt %v after verifying the secret key only", k["id"], k["lastUsedAt"])
		}
	}

	// Revoked and expired keys are returned with those fields set: the gateway decides.
	env.Admin(t, http.MethodPost, "/admin/keys/"+sk["id"].(string)+"/revoke", nil)
	r = env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(sk["key"].(string))})
	if r.Status != http.StatusOK || r.Body["revokedAt"] == nil {
		t.Fatalf("verify revoked: %d %s", r.Status, r.Raw)
	}
	env.Clock.Advance(2 * time.Hour)
	r = env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(pk["key"].(string))})
	if r.Status != http.StatusOK || r.Body["expiresAt"] != pk["expiresAt"] || r.Body["type"] != "publishable" || r.Body["revokedAt"] != nil {
		t.Fatalf("verify expired: %d %s", r.Status, r.Raw)
	}
	wantStrings(t, "allowedOrigins", r.Body["allowedOrigins"], "https://shop.example")

	wantError(t, env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash("pdm_sk_live_unknown")}), http.StatusNotFound, "key not found")
	wantError(t, env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": sk["key"]}), http.StatusBadRequest,
		[]any{"keyHash must be the hex SHA-256 of the key: 64 lowercase hexadecimal characters"})
}

func TestCheckOrigin(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	other := env.Organizer(t, "Road Runners")
	env.Key(t, org, map[string]any{"type": "publishable", "name": "site", "allowedOrigins": []string{"https://shop.example", "http://localhost:3000"}})
	env.Key(t, other, map[string]any{"type": "publishable", "name": "other", "allowedOrigins": []string{"https://runners.example"}})
	revoked := env.Key(t, org, map[string]any{"type": "publishable", "name": "old", "allowedOrigins": []string{"https://old.example"}})
	env.Admin(t, http.MethodPost, "/admin/keys/"+revoked["id"].(string)+"/revoke", nil)
	env.Key(t, org, map[string]any{"type": "publishable", "name": "promo", "allowedOrigins": []string{"https://promo.example"},
		"expiresAt": env.Clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)})

	check := func(origin string) bool {
		t.Helper()
		r := env.Internal(t, "/internal/origins/check", map[string]any{"origin": origin})
		if r.Status != http.StatusOK {
			t.Fatalf("check %q: %d %s", origin, r.Status, r.Raw)
		}
		return r.Body["allowed"].(bool)
	}
	for origin, want := range map[string]bool{
		"https://shop.example":      true,
		"https://SHOP.example:443":  true,
		"http://localhost:3000":     true,
		"https://runners.example":   true,
		"https://promo.example":     true,
		"https://old.example":       false,
		"https://evil.example":      false,
		"http://shop.example":       false,
		"https://shop.example/path": false,
		"null":                      false,
	} {
		if got := check(origin); got != want {
			t.Errorf("origin %q allowed = %v, want %v", origin, got, want)
		}
	}
	env.Clock.Advance(2 * time.Hour)
	if check("https://promo.example") {
		t.Error("the origin of an expired key is still allowed")
	}
	wantError(t, env.Internal(t, "/internal/origins/check", map[string]any{}), http.StatusBadRequest, []any{"origin is required"})
}
