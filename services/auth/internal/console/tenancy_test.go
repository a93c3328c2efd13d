package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestAnotherOrganizationDoesNotExistOnAnyRoute walks every organization route with another
// organization's ids, alone and mixed with one's own, as an owner (who may do anything in their
// own organization): every answer is 404 and nothing of the other organization changes.
func TestAnotherOrganizationDoesNotExistOnAnyRoute(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	rival := newOrg(t, env, "Rival Runs", "rival.test")
	rivalKey := env.Key(t, rival.id, map[string]any{"type": "secret", "name": "rival secret backend", "scopes": []string{"events:read"}})
	keyID := rivalKey["id"].(string)

	b := newBrowser(t, env)
	b.signIn(acme.owner)
	b.get("/orgs/" + acme.id + "/api")

	routes := []struct {
		method, path string
		form         url.Values
	}{
		{http.MethodGet, "/orgs/" + rival.id + "/api", nil},
		{http.MethodPost, "/orgs/" + rival.id + "/api/keys", url.Values{"type": {"secret"}, "name": {"planted"}, "scopes": {"events:read"}}},
		{http.MethodGet, "/orgs/" + rival.id + "/api/keys/" + keyID + "/revoke", nil},
		{http.MethodPost, "/orgs/" + rival.id + "/api/keys/" + keyID + "/revoke", url.Values{}},
		{http.MethodGet, "/orgs/" + rival.id + "/members", nil},
		{http.MethodPost, "/orgs/" + rival.id + "/members", url.Values{"email": {"spy@acme.test"}, "role": {"owner"}}},
		{http.MethodPost, "/orgs/" + rival.id + "/members/" + rival.ownerID + "/role", url.Values{"role": {"member"}}},
		{http.MethodGet, "/orgs/" + rival.id + "/members/" + rival.adminID + "/remove", nil},
		{http.MethodPost, "/orgs/" + rival.id + "/members/" + rival.adminID + "/remove", url.Values{}},
		{http.MethodGet, "/orgs/" + rival.id + "/audit", nil},
		// One's own organization with the other's key or member.
		{http.MethodGet, "/orgs/" + acme.id + "/api/keys/" + keyID + "/revoke", nil},
		{http.MethodPost, "/orgs/" + acme.id + "/api/keys/" + keyID + "/revoke", url.Values{}},
		{http.MethodPost, "/orgs/" + acme.id + "/members/" + rival.ownerID + "/role", url.Values{"role": {"member"}}},
		{http.MethodGet, "/orgs/" + acme.id + "/members/" + rival.adminID + "/remove", nil},
		{http.MethodPost, "/orgs/" + acme.id + "/members/" + rival.adminID + "/remove", url.Values{}},
	}
	for _, r := range routes {
		var p page
		if r.method == http.MethodGet {
			p = b.get(r.path)
		} else {
			p = b.post(r.path, r.form)
		}
		if p.status != http.StatusNotFound {
			t.Errorf("%s %s = %d, want 404", r.method, r.path, p.status)
		}
		for _, secret := range []string{"Rival Runs", "rival secret backend", rival.owner, rival.admin} {
			if strings.Contains(p.body, secret) {
				t.Errorf("%s %s shows %q", r.method, r.path, secret)
			}
		}
	}

	if verify(t, env, rivalKey["key"].(string))["revokedAt"] != nil {
		t.Error("the other organization's key was revoked")
	}
	members := env.Admin(t, http.MethodGet, "/admin/organizers/"+rival.id+"/members", nil)
	if members.Body["total"] != float64(3) || strings.Contains(string(members.Raw), "spy@") || !strings.Contains(string(members.Raw), `"role":"owner"`) {
		t.Errorf("the other organization's members changed: %s", members.Raw)
	}
	keys := env.Admin(t, http.MethodGet, "/admin/organizers/"+rival.id+"/keys", nil)
	if keys.Body["total"] != float64(1) {
		t.Errorf("a key was planted in the other organization: %s", keys.Raw)
	}
	for _, path := range []string{"/orgs/" + acme.id + "/api", "/orgs/" + acme.id + "/members", "/orgs/" + acme.id + "/audit", "/", "/sessions"} {
		p := b.get(path)
		for _, secret := range []string{"Rival Runs", "rival secret backend", rival.owner, keyID} {
			if strings.Contains(p.body, secret) {
				t.Errorf("own page %s shows the other organization's %q", path, secret)
			}
		}
	}
}

func TestAPersonInSeveralOrganizationsPicksOne(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	rival := newOrg(t, env, "Rival Runs", "rival.test")
	addMember(t, env, rival.id, acme.owner, "member")
	b := newBrowser(t, env)
	b.signIn(acme.owner)
	home := b.get("/")
	if home.status != http.StatusOK || !strings.Contains(home.body, "/orgs/"+acme.id+"/api") || !strings.Contains(home.body, "/orgs/"+rival.id+"/api") {
		t.Fatalf("home: %d %s", home.status, home.body)
	}
	if p := b.get("/orgs/" + rival.id + "/members"); p.status != http.StatusForbidden {
		t.Fatalf("member of the other organization manages its members: %d", p.status)
	}
}

// TestTheUseCasesCheckMembershipThemselves calls the console's use cases directly, past the
// pages' membership check: each still finds another organization, its keys and its members
// not found, and one's own organization's key or member under another organization's id too.
func TestTheUseCasesCheckMembershipThemselves(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	rival := newOrg(t, env, "Rival Runs", "rival.test")
	created := env.Key(t, rival.id, map[string]any{"type": "secret", "name": "k", "scopes": []string{"events:read"}})
	rivalKey := created["id"].(string)
	ctx, c := t.Context(), env.Console
	me := domain.Actor{Email: acme.owner, Address: "192.0.2.1"}
	page := domain.Page{Limit: 10}
	calls := map[string]func() error{
		"Keys":           func() error { _, _, err := c.Keys(ctx, me.Email, rival.id, apikey.Live, page); return err },
		"Key":            func() error { _, err := c.Key(ctx, me.Email, rival.id, rivalKey); return err },
		"Key of another": func() error { _, err := c.Key(ctx, me.Email, acme.id, rivalKey); return err },
		"CreateKey": func() error {
			_, err := c.CreateKey(ctx, me, rival.id, domain.KeyRequest{Type: "secret", Name: "x", Scopes: []string{"events:read"}})
			return err
		},
		"RevokeKey":        func() error { _, err := c.RevokeKey(ctx, me, rival.id, rivalKey); return err },
		"RevokeKey mixed":  func() error { _, err := c.RevokeKey(ctx, me, acme.id, rivalKey); return err },
		"Members":          func() error { _, _, err := c.Members(ctx, me.Email, rival.id, page); return err },
		"Member":           func() error { _, err := c.Member(ctx, me.Email, rival.id, rival.adminID); return err },
		"Member mixed":     func() error { _, err := c.Member(ctx, me.Email, acme.id, rival.adminID); return err },
		"InviteMember":     func() error { _, err := c.InviteMember(ctx, me, rival.id, "spy@acme.test", "owner"); return err },
		"ChangeMemberRole": func() error { _, err := c.ChangeMemberRole(ctx, me, rival.id, rival.ownerID, "member"); return err },
		"ChangeRole mixed": func() error { _, err := c.ChangeMemberRole(ctx, me, acme.id, rival.ownerID, "member"); return err },
		"RemoveMember":     func() error { _, err := c.RemoveMember(ctx, me, rival.id, rival.adminID); return err },
		"Remove mixed":     func() error { _, err := c.RemoveMember(ctx, me, acme.id, rival.adminID); return err },
		"AuditLog":         func() error { _, _, err := c.AuditLog(ctx, me.Email, rival.id, page); return err },
		"DeleteTestData":   func() error { _, err := c.DeleteTestData(ctx, me.Email, rival.id); return err },
		"TestMail":         func() error { _, _, err := c.TestMail(ctx, me.Email, rival.id, page); return err },
	}
	for name, call := range calls {
		if err := call(); fault.KindOf(err) != fault.NotFound {
			t.Errorf("%s on another organization: %v, want not found", name, err)
		}
	}
	if verify(t, env, created["key"].(string))["revokedAt"] != nil {
		t.Error("the other organization's key was revoked")
	}
	if r := env.Admin(t, http.MethodGet, "/admin/organizers/"+rival.id+"/members", nil); r.Body["total"] != float64(3) || !strings.Contains(string(r.Raw), `"role":"owner"`) {
		t.Errorf("the other organization's members changed: %s", r.Raw)
	}
}
