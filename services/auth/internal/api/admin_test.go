package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestAdminRequiresTheOperatorToken(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	for name, headers := range map[string]map[string]string{
		"none":       nil,
		"wrong":      {"Authorization": "Bearer " + strings.Repeat("x", len(authtest.OperatorToken))},
		"not bearer": {"Authorization": "Basic " + authtest.OperatorToken},
		"prefix":     {"Authorization": "Bearer " + authtest.OperatorToken[:10]},
	} {
		t.Run(name, func(t *testing.T) {
			r := env.Do(t, http.MethodGet, "/admin/organizers", nil, headers)
			wantError(t, r, http.StatusUnauthorized, nil)
			if r.Header.Get("WWW-Authenticate") == "" {
				t.Fatal("no WWW-Authenticate header")
			}
			r = env.Do(t, http.MethodPost, "/admin/keys/key_x/revoke", nil, headers)
			wantError(t, r, http.StatusUnauthorized, nil)
		})
	}
	if r := env.Admin(t, http.MethodGet, "/admin/organizers", nil); r.Status != http.StatusOK {
		t.Fatalf("with the token: %d %s", r.Status, r.Raw)
	}
}

func TestOrganizers(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	r := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": " Trail Club "})
	if r.Status != http.StatusCreated || r.Body["name"] != "Trail Club" ||
		!regexp.MustCompile(`^org_[0-9A-Za-z]{20}$`).MatchString(r.Body["id"].(string)) {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	if _, err := time.Parse(time.RFC3339, r.Body["createdAt"].(string)); err != nil || !strings.HasSuffix(r.Body["createdAt"].(string), "Z") {
		t.Fatalf("createdAt %v is not RFC 3339 UTC", r.Body["createdAt"])
	}
	id := r.Body["id"].(string)
	env.Organizer(t, "Second")

	got := env.Admin(t, http.MethodGet, "/admin/organizers/"+id, nil)
	if got.Status != http.StatusOK || string(got.Raw) != string(r.Raw) {
		t.Fatalf("get: %d %s, want %s", got.Status, got.Raw, r.Raw)
	}
	list := env.Admin(t, http.MethodGet, "/admin/organizers?limit=1", nil)
	if list.Status != http.StatusOK || list.Body["total"] != 2.0 || len(list.Body["data"].([]any)) != 1 || list.Body["limit"] != 1.0 {
		t.Fatalf("list: %d %s", list.Status, list.Raw)
	}
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/org_missing", nil), http.StatusNotFound, "organizer not found")
	wantError(t, env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{}), http.StatusBadRequest, []any{"name is required"})
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers?limit=0&offset=-1", nil), http.StatusBadRequest,
		[]any{"limit must be an integer from 1 to 100", "offset must be an integer from 0 to 2147483647"})
	wantError(t, env.Do(t, http.MethodPost, "/admin/organizers", nil, map[string]string{
		"Authorization": "Bearer " + authtest.OperatorToken, "Content-Type": "application/json",
	}), http.StatusBadRequest, nil)
}

func TestKeyLifecycle(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")

	sk := env.Key(t, org, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read", "registrations:write"}, "expiresAt": "2099-01-01T00:00:00+01:00"})
	full := sk["key"].(string)
	if typ, _, err := apikey.Parse(full); err != nil || typ != apikey.Secret {
		t.Fatalf("created key %q: %v", full, err)
	}
	if sk["prefix"] != apikey.SecretPrefix || sk["last4"] != apikey.Last4(full) || sk["organizerId"] != org ||
		sk["expiresAt"] != "2098-12-31T23:00:00Z" || sk["revokedAt"] != nil || sk["lastUsedAt"] != nil {
		t.Fatalf("created secret key %v", sk)
	}
	wantStrings(t, "scopes", sk["scopes"], "events:read", "registrations:write")
	wantStrings(t, "allowedOrigins", sk["allowedOrigins"])

	pk := env.Key(t, org, map[string]any{"type": "publishable", "name": "site", "allowedOrigins": []string{"https://Shop.Example:443", "http://localhost:3000"}})
	if !strings.HasPrefix(pk["key"].(string), apikey.PublishablePrefix) || pk["prefix"] != apikey.PublishablePrefix || pk["expiresAt"] != nil {
		t.Fatalf("created publishable key %v", pk)
	}
	wantStrings(t, "allowedOrigins", pk["allowedOrigins"], "https://shop.example", "http://localhost:3000")

	list := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys", nil)
	if list.Status != http.StatusOK || list.Body["total"] != 2.0 {
		t.Fatalf("list: %d %s", list.Status, list.Raw)
	}
	if strings.Contains(string(list.Raw), full) || strings.Contains(string(list.Raw), `"key"`) {
		t.Fatal("the listing shows a full key")
	}
	first := list.Body["data"].([]any)[0].(map[string]any)
	if first["id"] != pk["id"] || first["name"] != "site" || first["type"] != "publishable" {
		t.Fatalf("listing is not newest first: %v", first)
	}

	revoked := env.Admin(t, http.MethodPost, "/admin/keys/"+sk["id"].(string)+"/revoke", nil)
	if revoked.Status != http.StatusOK || revoked.Body["revokedAt"] == nil || revoked.Body["id"] != sk["id"] {
		t.Fatalf("revoke: %d %s", revoked.Status, revoked.Raw)
	}
	env.Clock.Advance(time.Hour)
	again := env.Admin(t, http.MethodPost, "/admin/keys/"+sk["id"].(string)+"/revoke", nil)
	if again.Status != http.StatusOK || again.Body["revokedAt"] != revoked.Body["revokedAt"] {
		t.Fatalf("second revoke: %d %s, want revokedAt %v kept", again.Status, again.Raw, revoked.Body["revokedAt"])
	}
	wantError(t, env.Admin(t, http.MethodPost, "/admin/keys/key_missing/revoke", nil), http.StatusNotFound, "key not found")
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/org_missing/keys", nil), http.StatusNotFound, "organizer not found")
}

func TestCreateKeyReportsProblemsByField(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	path := "/admin/organizers/" + org + "/keys"
	wantError(t, env.Admin(t, http.MethodPost, path, map[string]any{
		"type": "secret", "name": "", "scopes": []string{"events:read", "events:write"}, "expiresAt": "2020-01-01T00:00:00Z",
	}), http.StatusBadRequest, []any{
		"name is required",
		"scopes[1] must be one of events:read, pricing:read, registrations:read, registrations:write, webhooks:write, checkins:write, refunds:write",
		"expiresAt must be in the future",
	})
	wantError(t, env.Admin(t, http.MethodPost, path, map[string]any{
		"type": "publishable", "name": "site", "allowedOrigins": []string{"https://ok.example", "http://shop.example", "https://a.example/checkout"},
	}), http.StatusBadRequest, []any{
		"allowedOrigins[1] must use https: plain http is allowed only for localhost, 127.0.0.1 and [::1] (local development)",
		"allowedOrigins[2] must not have a path (not even a trailing /)",
	})
	wantError(t, env.Admin(t, http.MethodPost, path, map[string]any{"name": "x"}), http.StatusBadRequest,
		[]any{"type is required: secret or publishable"})
	wantError(t, env.Admin(t, http.MethodPost, path, map[string]any{"type": "secret", "name": "x", "scopes": "events:read"}),
		http.StatusBadRequest, []any{"body must be a valid JSON object of the documented shape"})
	// An unknown organizer is reported before problems in the body.
	wantError(t, env.Admin(t, http.MethodPost, "/admin/organizers/org_missing/keys", map[string]any{}), http.StatusNotFound, "organizer not found")
	if list := env.Admin(t, http.MethodGet, path, nil); list.Body["total"] != 0.0 {
		t.Fatalf("refused requests stored keys: %s", list.Raw)
	}
}
