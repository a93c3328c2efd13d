package console_test

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// org is an organization with one member of each role.
type org struct {
	id, name                   string
	owner, admin, member       string
	ownerID, adminID, memberID string
}

// newOrg creates an organization named name whose members' e-mails are role@<domain>.
func newOrg(t *testing.T, env *authtest.Env, name, domain string) org {
	t.Helper()
	o := org{name: name, owner: "owner@" + domain, admin: "admin@" + domain, member: "member@" + domain}
	r := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": name, "owner": o.owner})
	if r.Status != http.StatusCreated {
		t.Fatalf("create organizer: %d %s", r.Status, r.Raw)
	}
	o.id = r.Body["id"].(string)
	o.ownerID = r.Body["owner"].(map[string]any)["id"].(string)
	o.adminID = addMember(t, env, o.id, o.admin, "admin")
	o.memberID = addMember(t, env, o.id, o.member, "member")
	return o
}

func addMember(t *testing.T, env *authtest.Env, orgID, email, role string) string {
	t.Helper()
	r := env.Admin(t, http.MethodPost, "/admin/organizers/"+orgID+"/members", map[string]any{"email": email, "role": role})
	if r.Status != http.StatusCreated {
		t.Fatalf("add member: %d %s", r.Status, r.Raw)
	}
	return r.Body["id"].(string)
}
