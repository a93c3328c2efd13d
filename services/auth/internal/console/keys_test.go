package console_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

var newKeyField = `id="new-key"[^>]* value="([^"]+)"`

// verify asks auth, as the gateway does, what a key may do.
func verify(t *testing.T, env *authtest.Env, key string) map[string]any {
	t.Helper()
	r := env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(key)})
	if r.Status != http.StatusOK {
		t.Fatalf("verify: %d %s", r.Status, r.Raw)
	}
	return r.Body
}

func TestAnOwnerCreatesASecretKeyShownOnlyOnce(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.signIn(acme.owner)
	b.get("/orgs/" + acme.id + "/api")

	created := b.post("/orgs/"+acme.id+"/api/keys", url.Values{
		"type": {"secret"}, "name": {"results sync"}, "scopes": {"events:read", "registrations:read"}, "expires": {"2099-01-31"},
	})
	if created.status != http.StatusCreated || !strings.Contains(created.body, "will not be shown again") {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	key := regexp1(t, created.body, newKeyField)
	v := verify(t, env, key)
	if got := v["scopes"].([]any); len(got) != 2 || got[0] != "events:read" || got[1] != "registrations:read" {
		t.Fatalf("scopes: %v", got)
	}
	if v["organizerId"] != acme.id || v["expiresAt"] != "2099-01-31T00:00:00Z" || v["revokedAt"] != nil {
		t.Fatalf("verified key: %v", v)
	}
	tab := b.get("/orgs/" + acme.id + "/api")
	if strings.Contains(tab.body, key) || !strings.Contains(tab.body, "…"+key[len(key)-4:]) || !strings.Contains(tab.body, "results sync") {
		t.Fatalf("API tab must list the key by its last characters only: %s", tab.body)
	}

	invalid := b.post("/orgs/"+acme.id+"/api/keys", url.Values{"type": {"secret"}, "name": {" "}, "expires": {"2001-01-01"}})
	if invalid.status != http.StatusBadRequest {
		t.Fatalf("invalid form: %d", invalid.status)
	}
	for _, want := range []string{"name is required", "choose at least one scope", "expiry date must be in the future"} {
		if !strings.Contains(invalid.body, want) {
			t.Errorf("invalid form does not say %q", want)
		}
	}
}

func TestPublishableKeyOriginsAreCheckedLineByLineAndNormalized(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.signIn(acme.admin)
	b.get("/orgs/" + acme.id + "/api")

	bad := b.post("/orgs/"+acme.id+"/api/keys", url.Values{
		"type": {"publishable"}, "name": {"site"}, "origins": {"https://shop.acme.test\nhttp://shop.acme.test\r\nhttps://acme.test/path"},
	})
	if bad.status != http.StatusBadRequest {
		t.Fatalf("bad origins: %d", bad.status)
	}
	for _, want := range []string{"origin on line 2", "plain http is allowed only for localhost", "origin on line 3", "must not have a path"} {
		if !strings.Contains(bad.body, want) {
			t.Errorf("bad origins: the page does not say %q", want)
		}
	}
	if strings.Contains(bad.body, "origin on line 1") {
		t.Error("a valid origin was reported")
	}

	good := b.post("/orgs/"+acme.id+"/api/keys", url.Values{
		"type": {"publishable"}, "name": {"site"}, "origins": {"HTTPS://Shop.Acme.test:443\n\nhttp://localhost:5173\n"},
	})
	if good.status != http.StatusCreated || !strings.Contains(good.body, "local development") {
		t.Fatalf("good origins: %d %s", good.status, good.body)
	}
	v := verify(t, env, regexp1(t, good.body, newKeyField))
	origins := v["allowedOrigins"].([]any)
	if len(origins) != 2 || !slices.Contains(origins, any("https://shop.acme.test")) || !slices.Contains(origins, any("http://localhost:5173")) {
		t.Fatalf("allowed origins: %v", origins)
	}
}

func TestRevokingAKeyAsksForConfirmation(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	k := env.Key(t, acme.id, map[string]any{"type": "secret", "name": "old backend", "scopes": []string{"events:read"}})
	b := newBrowser(t, env)
	b.signIn(acme.owner)

	confirm := b.get("/orgs/" + acme.id + "/api/keys/" + k["id"].(string) + "/revoke")
	if confirm.status != http.StatusOK || !strings.Contains(confirm.body, "Revoke “old backend”?") {
		t.Fatalf("confirmation: %d %s", confirm.status, confirm.body)
	}
	if verify(t, env, k["key"].(string))["revokedAt"] != nil {
		t.Fatal("opening the confirmation revoked the key")
	}
	done := b.post("/orgs/"+acme.id+"/api/keys/"+k["id"].(string)+"/revoke", nil)
	if done.status != http.StatusSeeOther || done.location != "/orgs/"+acme.id+"/api?done=revoked" {
		t.Fatalf("revoke: %d %q", done.status, done.location)
	}
	if verify(t, env, k["key"].(string))["revokedAt"] == nil {
		t.Fatal("the key is not revoked")
	}
	if tab := b.get(done.location); !strings.Contains(tab.body, "The key was revoked.") || !strings.Contains(tab.body, "revoked 20") {
		t.Fatalf("API tab after revoking: %s", tab.body)
	}
}

func TestAMemberSeesTheKeysAndCanNeitherCreateNorRevoke(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	k := env.Key(t, acme.id, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})
	keyID := k["id"].(string)
	b := newBrowser(t, env)
	b.signIn(acme.member)

	tab := b.get("/orgs/" + acme.id + "/api")
	if tab.status != http.StatusOK || !strings.Contains(tab.body, "backend") {
		t.Fatalf("member's API tab: %d %s", tab.status, tab.body)
	}
	for _, absent := range []string{"Create a secret key", "Create a publishable key", "Revoke…", `href="/orgs/` + acme.id + `/members"`} {
		if strings.Contains(tab.body, absent) {
			t.Errorf("a member's API tab shows %q", absent)
		}
	}
	forged := []struct {
		method, path string
		form         url.Values
	}{
		{http.MethodPost, "/orgs/" + acme.id + "/api/keys", url.Values{"type": {"secret"}, "name": {"forged"}, "scopes": {"events:read"}}},
		{http.MethodGet, "/orgs/" + acme.id + "/api/keys/" + keyID + "/revoke", nil},
		{http.MethodPost, "/orgs/" + acme.id + "/api/keys/" + keyID + "/revoke", url.Values{}},
		{http.MethodGet, "/orgs/" + acme.id + "/members", nil},
		{http.MethodPost, "/orgs/" + acme.id + "/members", url.Values{"email": {"friend@acme.test"}, "role": {"admin"}}},
		{http.MethodPost, "/orgs/" + acme.id + "/members/" + acme.memberID + "/role", url.Values{"role": {"owner"}}},
		{http.MethodPost, "/orgs/" + acme.id + "/members/" + acme.adminID + "/remove", url.Values{}},
		{http.MethodGet, "/orgs/" + acme.id + "/audit", nil},
	}
	for _, f := range forged {
		var p page
		if f.method == http.MethodGet {
			p = b.get(f.path)
		} else {
			p = b.post(f.path, f.form)
		}
		if p.status != http.StatusForbidden || p.code != "not_allowed" {
			t.Errorf("member: %s %s = %d %q, want 403 not_allowed", f.method, f.path, p.status, p.code)
		}
	}
	if verify(t, env, k["key"].(string))["revokedAt"] != nil {
		t.Fatal("a member revoked a key")
	}
	if strings.Contains(b.get("/orgs/"+acme.id+"/api").body, "forged") {
		t.Fatal("a member created a key")
	}
}

func TestTheSecretKeyFormOffersWebhooksWrite(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.signIn(acme.owner)
	tab := b.get("/orgs/" + acme.id + "/api")
	if !strings.Contains(tab.body, `name="scopes" value="webhooks:write"`) {
		t.Fatalf("no webhooks:write checkbox: %s", tab.body)
	}
	if !strings.Contains(tab.body, `name="scopes" value="checkins:write"`) {
		t.Fatalf("no checkins:write checkbox: %s", tab.body)
	}
	created := b.post("/orgs/"+acme.id+"/api/keys", url.Values{"type": {"secret"}, "name": {"hooks"}, "scopes": {"webhooks:write"}})
	if created.status != http.StatusCreated {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	if v := verify(t, env, regexp1(t, created.body, newKeyField)); len(v["scopes"].([]any)) != 1 || v["scopes"].([]any)[0] != "webhooks:write" {
		t.Fatalf("verified key: %v", v)
	}
}
