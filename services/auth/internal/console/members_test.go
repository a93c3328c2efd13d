package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestOwnersAndAdminsManageMembersAndOnlyOwnersTheOwnerRole(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	admin := newBrowser(t, env)
	admin.signIn(acme.admin)
	admin.get("/orgs/" + acme.id + "/members")

	before := len(env.Mail.Messages())
	invite := admin.post("/orgs/"+acme.id+"/members", url.Values{"email": {"Coach@Acme.test"}, "role": {"admin"}})
	if invite.status != http.StatusSeeOther {
		t.Fatalf("invite: %d %s", invite.status, invite.body)
	}
	invitation := waitMail(t, env, "coach@acme.test", before)
	if !strings.Contains(invitation.Subject, "Acme Races") || !strings.Contains(invitation.Body, env.ConsoleURL+"/signin") {
		t.Fatalf("invitation: %+v", invitation)
	}
	list := admin.get("/orgs/" + acme.id + "/members")
	if !strings.Contains(list.body, "coach@acme.test") {
		t.Fatalf("members: %s", list.body)
	}
	// An admin is offered neither the owner role nor controls over the owner.
	if strings.Contains(list.body, `<option value="owner"`) || strings.Contains(list.body, "/members/"+acme.ownerID+"/") {
		t.Fatalf("an admin's members page offers owner controls: %s", list.body)
	}
	if p := admin.post("/orgs/"+acme.id+"/members", url.Values{"email": {"coach@acme.test"}, "role": {"member"}}); p.status != http.StatusBadRequest || !strings.Contains(p.body, "already a member") {
		t.Fatalf("invite twice: %d", p.status)
	}
	if p := admin.post("/orgs/"+acme.id+"/members/"+acme.memberID+"/role", url.Values{"role": {"admin"}}); p.status != http.StatusSeeOther {
		t.Fatalf("admin promotes a member to admin: %d %s", p.status, p.body)
	}
	for _, f := range []struct {
		path string
		form url.Values
	}{
		{"/orgs/" + acme.id + "/members", url.Values{"email": {"boss@acme.test"}, "role": {"owner"}}},
		{"/orgs/" + acme.id + "/members", url.Values{"email": {"boss@acme.test"}, "role": {" owner "}}},
		{"/orgs/" + acme.id + "/members/" + acme.memberID + "/role", url.Values{"role": {"owner"}}},
		{"/orgs/" + acme.id + "/members/" + acme.memberID + "/role", url.Values{"role": {"owner "}}},
		{"/orgs/" + acme.id + "/members/" + acme.ownerID + "/role", url.Values{"role": {"member"}}},
		{"/orgs/" + acme.id + "/members/" + acme.ownerID + "/remove", url.Values{}},
	} {
		if p := admin.post(f.path, f.form); p.status != http.StatusForbidden || p.code != "not_allowed" {
			t.Errorf("admin: POST %s %v = %d %q, want 403", f.path, f.form, p.status, p.code)
		}
	}

	owner := newBrowser(t, env)
	owner.signIn(acme.owner)
	if p := owner.get("/orgs/" + acme.id + "/members"); !strings.Contains(p.body, `<option value="owner"`) || !strings.Contains(p.body, "/members/"+acme.ownerID+"/remove") {
		t.Fatalf("an owner's members page lacks the owner controls: %s", p.body)
	}
	last := owner.post("/orgs/"+acme.id+"/members/"+acme.ownerID+"/role", url.Values{"role": {"admin"}})
	if last.status != http.StatusConflict || !strings.Contains(last.body, "at least one owner") {
		t.Fatalf("the last owner steps down: %d %s", last.status, last.body)
	}
	if p := owner.post("/orgs/"+acme.id+"/members/"+acme.adminID+"/role", url.Values{"role": {"owner"}}); p.status != http.StatusSeeOther {
		t.Fatalf("owner grants owner: %d %s", p.status, p.body)
	}
	if p := owner.get("/orgs/" + acme.id + "/members/" + acme.memberID + "/remove"); p.status != http.StatusOK || !strings.Contains(p.body, "Remove member@acme.test?") {
		t.Fatalf("removal confirmation: %d %s", p.status, p.body)
	}
	if p := owner.post("/orgs/"+acme.id+"/members/"+acme.memberID+"/remove", nil); p.status != http.StatusSeeOther {
		t.Fatalf("remove: %d %s", p.status, p.body)
	}
	if p := owner.get("/orgs/" + acme.id + "/members"); strings.Contains(p.body, acme.member) {
		t.Fatal("the removed member is still listed")
	}
}

func TestTheAuditLogSaysWhoDidWhatWhenAndFromWhere(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	b := newBrowser(t, env)
	b.address = "192.0.2.44"
	b.signIn(acme.owner)
	b.get("/orgs/" + acme.id + "/api")
	created := b.post("/orgs/"+acme.id+"/api/keys", url.Values{"type": {"secret"}, "name": {"audited"}, "scopes": {"events:read"}})
	if created.status != http.StatusCreated {
		t.Fatalf("create: %d", created.status)
	}
	keyID := regexp1(t, b.get("/orgs/"+acme.id+"/api").body, `id="key-(key_[0-9A-Za-z]+)"`)
	b.post("/orgs/"+acme.id+"/api/keys/"+keyID+"/revoke", nil)
	b.post("/orgs/"+acme.id+"/members", url.Values{"email": {"new@acme.test"}, "role": {"member"}})

	log := b.get("/orgs/" + acme.id + "/audit")
	if log.status != http.StatusOK {
		t.Fatalf("audit: %d", log.status)
	}
	for _, want := range []string{"key.created", "key.revoked", "member.added", "new@acme.test", "audited", "192.0.2.44", acme.owner, "operator"} {
		if !strings.Contains(log.body, want) {
			t.Errorf("audit log lacks %q", want)
		}
	}
}
