package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// TestTestModeKeys mints test keys through the admin API: their prefix and views name the
// test mode, the listing filters by mode, and the gateway's verification answers the mode of
// each key beside the fields it had.
func TestTestModeKeys(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")

	sk := env.Key(t, org, map[string]any{"type": "secret", "mode": "test", "name": "sandbox", "scopes": []string{"events:read"}})
	pk := env.Key(t, org, map[string]any{"type": "publishable", "mode": "test", "name": "sandbox site", "allowedOrigins": []string{"http://localhost:3000"}})
	live := env.Key(t, org, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})
	for _, c := range []struct {
		key    map[string]any
		prefix string
		typ    apikey.Type
		mode   apikey.Mode
	}{{sk, apikey.SecretTestPrefix, apikey.Secret, apikey.Test}, {pk, apikey.PublishableTestPrefix, apikey.Publishable, apikey.Test}, {live, apikey.SecretPrefix, apikey.Secret, apikey.Live}} {
		full := c.key["key"].(string)
		typ, mode, err := apikey.Parse(full)
		if err != nil || typ != c.typ || mode != c.mode || !strings.HasPrefix(full, c.prefix) || c.key["prefix"] != c.prefix || c.key["mode"] != string(c.mode) {
			t.Fatalf("created %v (%s %s %v), want %s %s", c.key, typ, mode, err, c.prefix, c.mode)
		}
		r := env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(full)})
		if r.Status != http.StatusOK || r.Body["mode"] != string(c.mode) || r.Body["id"] != c.key["id"] || r.Body["type"] != string(c.typ) || r.Body["organizerId"] != org {
			t.Fatalf("verify %s: %d %s", c.prefix, r.Status, r.Raw)
		}
	}

	all := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys", nil)
	if all.Body["total"] != 3.0 {
		t.Fatalf("list: %s", all.Raw)
	}
	modes := map[any]any{}
	for _, k := range all.Body["data"].([]any) {
		k := k.(map[string]any)
		modes[k["id"]] = k["mode"]
	}
	if modes[sk["id"]] != "test" || modes[pk["id"]] != "test" || modes[live["id"]] != "live" {
		t.Fatalf("listed modes %v", modes)
	}
	tests := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys?mode=test", nil)
	if tests.Body["total"] != 2.0 || strings.Contains(string(tests.Raw), live["id"].(string)) {
		t.Fatalf("test keys: %s", tests.Raw)
	}
	lives := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys?mode=live", nil)
	if lives.Body["total"] != 1.0 || !strings.Contains(string(lives.Raw), live["id"].(string)) {
		t.Fatalf("live keys: %s", lives.Raw)
	}
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys?mode=sandbox", nil), http.StatusBadRequest, []any{"mode must be one of live, test"})
	r := env.Admin(t, http.MethodPost, "/admin/organizers/"+org+"/keys", map[string]any{"type": "secret", "mode": "sandbox", "name": "x", "scopes": []string{"events:read"}})
	wantError(t, r, http.StatusBadRequest, []any{"mode must be one of live, test"})

	revoked := env.Admin(t, http.MethodPost, "/admin/keys/"+sk["id"].(string)+"/revoke", nil)
	if revoked.Body["mode"] != "test" || revoked.Body["prefix"] != apikey.SecretTestPrefix {
		t.Fatalf("revoked test key: %s", revoked.Raw)
	}
}
