package console_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestAKeyNameWithControlCharactersIsRefused(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.signIn(acme.owner)
	b.get("/orgs/" + acme.id + "/api")

	for _, name := range []string{
		"ci\n2026-11-28T10:00:00Z  operator  10.0.0.7  key.revoked  key_forged  secret key prod",
		"ci\x1b[2K", "ci\u202egnp",
	} {
		p := b.post("/orgs/"+acme.id+"/api/keys", url.Values{"type": {"secret"}, "name": {name}, "scopes": {"events:read"}})
		if p.status != http.StatusBadRequest || !strings.Contains(html.UnescapeString(p.body), "name "+safetext.Rule) {
			t.Fatalf("key name %q: %d %s", name, p.status, p.body)
		}
	}
	if p := b.get("/orgs/" + acme.id + "/audit"); strings.Contains(p.body, "key.created") {
		t.Fatalf("a refused key was recorded: %s", p.body)
	}
}
