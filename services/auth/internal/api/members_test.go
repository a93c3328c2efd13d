package api_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestOrganizerWithOwner(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	r := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": "Trail Club", "owner": " Ana@Example.com "})
	owner, _ := r.Body["owner"].(map[string]any)
	if r.Status != http.StatusCreated || owner == nil || owner["email"] != "ana@example.com" || owner["role"] != "owner" ||
		owner["organizerId"] != r.Body["id"] || !regexp.MustCompile(`^mbr_[0-9A-Za-z]{20}$`).MatchString(owner["id"].(string)) {
		t.Fatalf("create with owner: %d %s", r.Status, r.Raw)
	}
	list := env.Admin(t, http.MethodGet, "/admin/organizers/"+r.Body["id"].(string)+"/members", nil)
	if list.Status != http.StatusOK || list.Body["total"] != 1.0 {
		t.Fatalf("members: %d %s", list.Status, list.Raw)
	}
	bad := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": "", "owner": "not-an-email"})
	wantError(t, bad, http.StatusBadRequest, []any{"name is required"})
	if r := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": "X", "owner": "not-an-email"}); r.Status != http.StatusBadRequest {
		t.Fatalf("invalid owner: %d %s", r.Status, r.Raw)
	}
}

func TestMembersAPI(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	path := "/admin/organizers/" + org + "/members"

	owner := env.Admin(t, http.MethodPost, path, map[string]any{"email": "ana@example.com", "role": "owner"})
	if owner.Status != http.StatusCreated || owner.Body["role"] != "owner" || owner.Body["updatedAt"] != owner.Body["createdAt"] {
		t.Fatalf("add: %d %s", owner.Status, owner.Raw)
	}
	ownerPath := path + "/" + owner.Body["id"].(string)
	admin := env.Admin(t, http.MethodPost, path, map[string]any{"email": "bo@example.com", "role": "admin"})
	adminPath := path + "/" + admin.Body["id"].(string)

	dup := env.Admin(t, http.MethodPost, path, map[string]any{"email": "ANA@example.com", "role": "member"})
	wantError(t, dup, http.StatusConflict, "email is already a member of this organization")
	wantCode(t, dup, "member_exists")

	invalid := env.Admin(t, http.MethodPost, path, map[string]any{"email": "ana@exämple.com", "role": "boss"})
	wantError(t, invalid, http.StatusBadRequest, []any{
		"email must be an ASCII e-mail address such as ana@example.com", "role must be one of owner, admin, member"})
	wantCode(t, invalid, "validation_failed")
	wantProblems(t, invalid, "email", "role")

	changed := env.Admin(t, http.MethodPatch, adminPath, map[string]any{"role": "member"})
	if changed.Status != http.StatusOK || changed.Body["role"] != "member" {
		t.Fatalf("change role: %d %s", changed.Status, changed.Raw)
	}
	wantError(t, env.Admin(t, http.MethodPatch, adminPath, map[string]any{"role": ""}), http.StatusBadRequest, []any{"role is required"})

	demote := env.Admin(t, http.MethodPatch, ownerPath, map[string]any{"role": "admin"})
	wantError(t, demote, http.StatusConflict, "an organization must keep at least one owner")
	wantCode(t, demote, "last_owner")
	wantCode(t, env.Admin(t, http.MethodDelete, ownerPath, nil), "last_owner")

	removed := env.Admin(t, http.MethodDelete, adminPath, nil)
	if removed.Status != http.StatusOK || removed.Body["email"] != "bo@example.com" {
		t.Fatalf("remove: %d %s", removed.Status, removed.Raw)
	}
	wantError(t, env.Admin(t, http.MethodDelete, adminPath, nil), http.StatusNotFound, "member not found")
	list := env.Admin(t, http.MethodGet, path+"?limit=10", nil)
	if list.Status != http.StatusOK || list.Body["total"] != 1.0 || list.Body["limit"] != 10.0 {
		t.Fatalf("list: %d %s", list.Status, list.Raw)
	}

	other := env.Organizer(t, "Other Club")
	otherPath := "/admin/organizers/" + other + "/members"
	if r := env.Admin(t, http.MethodGet, otherPath, nil); r.Body["total"] != 0.0 {
		t.Fatalf("another organization sees members: %s", r.Raw)
	}
	wantError(t, env.Admin(t, http.MethodPatch, otherPath+"/"+owner.Body["id"].(string), map[string]any{"role": "member"}), http.StatusNotFound, "member not found")
	wantError(t, env.Admin(t, http.MethodPost, "/admin/organizers/org_missing/members", map[string]any{}), http.StatusNotFound, "organizer not found")
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/org_missing/members", nil), http.StatusNotFound, "organizer not found")
}

func wantCode(t *testing.T, r testkit.Response, code string) {
	t.Helper()
	if r.Body["code"] != code {
		t.Fatalf("code %v, want %s: %s", r.Body["code"], code, r.Raw)
	}
}

// wantProblems checks the paths of the body's problems, in order.
func wantProblems(t *testing.T, r testkit.Response, paths ...string) {
	t.Helper()
	problems, _ := r.Body["problems"].([]any)
	if len(problems) != len(paths) {
		t.Fatalf("problems %v, want paths %q", r.Body["problems"], paths)
	}
	for i, p := range problems {
		if p.(map[string]any)["path"] != paths[i] || p.(map[string]any)["code"] == "" {
			t.Fatalf("problem %d = %v, want path %q", i, p, paths[i])
		}
	}
}
