package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestAuditLogAPI(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	k := env.Key(t, org, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})
	keyID := k["id"].(string)
	for range 2 { // the second revocation changes nothing and is not recorded
		if r := env.Admin(t, http.MethodPost, "/admin/keys/"+keyID+"/revoke", nil); r.Status != http.StatusOK {
			t.Fatalf("revoke: %d %s", r.Status, r.Raw)
		}
	}
	m := env.Admin(t, http.MethodPost, "/admin/organizers/"+org+"/members", map[string]any{"email": "bo@example.com", "role": "owner"})
	memberID := m.Body["id"].(string)
	other := env.Organizer(t, "Other Club")
	env.Key(t, other, map[string]any{"type": "secret", "name": "theirs", "scopes": []string{"events:read"}})

	path := "/admin/organizers/" + org + "/audit"
	r := env.Admin(t, http.MethodGet, path, nil)
	if r.Status != http.StatusOK || r.Body["total"] != 3.0 || r.Body["limit"] != 50.0 || r.Body["offset"] != 0.0 {
		t.Fatalf("audit log: %d %s", r.Status, r.Raw)
	}
	want := []string{
		"operator 127.0.0.1 member.added " + memberID + " bo@example.com as owner",
		"operator 127.0.0.1 key.revoked " + keyID + " secret key backend",
		"operator 127.0.0.1 key.created " + keyID + " secret key backend",
	}
	for i, e := range r.Body["data"].([]any) {
		entry := e.(map[string]any)
		got := fmt.Sprint(entry["actor"], " ", entry["address"], " ", entry["action"], " ", entry["subjectId"], " ", entry["detail"])
		if got != want[i] || entry["organizerId"] != org || entry["at"] == nil || entry["id"] == nil {
			t.Fatalf("entry %d = %v, want %s", i, entry, want[i])
		}
	}

	page := env.Admin(t, http.MethodGet, path+"?limit=1&offset=2", nil)
	if data, _ := page.Body["data"].([]any); page.Status != http.StatusOK || len(data) != 1 || data[0].(map[string]any)["action"] != "key.created" {
		t.Fatalf("last page: %d %s", page.Status, page.Raw)
	}
	wantError(t, env.Admin(t, http.MethodGet, path+"?limit=0", nil), http.StatusBadRequest, []any{"limit must be an integer from 1 to 100"})
	wantError(t, env.Admin(t, http.MethodGet, "/admin/organizers/org_missing/audit", nil), http.StatusNotFound, "organizer not found")
	wantError(t, env.Do(t, http.MethodGet, path, nil, nil), http.StatusUnauthorized, nil)
}

func TestAnOrganizerCreatedWithItsOwnerRecordsTheOwner(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	r := env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": "Trail Club", "owner": "Ana@Example.com"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	owner := r.Body["owner"].(map[string]any)["id"].(string)
	log := env.Admin(t, http.MethodGet, "/admin/organizers/"+r.Body["id"].(string)+"/audit", nil)
	data, _ := log.Body["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("audit log: %s", log.Raw)
	}
	e := data[0].(map[string]any)
	if got := fmt.Sprint(e["actor"], " ", e["action"], " ", e["subjectId"], " ", e["detail"]); got != "operator member.added "+owner+" ana@example.com as owner" {
		t.Fatalf("entry: %s", got)
	}
}
