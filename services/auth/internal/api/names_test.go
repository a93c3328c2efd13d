package api_test

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// forgedLine is a name that would print as a line of its own in an audit list: it ends the
// real line and writes a revocation that never happened.
const forgedLine = "ci\n2026-11-28T10:00:00Z  operator  10.0.0.7  key.revoked  key_forged  secret key prod"

func TestNamesWithControlCharactersAreRefused(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	rule := []any{"name " + safetext.Rule}

	for _, name := range []string{forgedLine, "ci\tprod", "ci\x1b[2K", "ci\u202egnp", "ci\u2028x", "ci\u200b"} {
		r := env.Admin(t, http.MethodPost, "/admin/organizers/"+org+"/keys", map[string]any{"type": "secret", "name": name, "scopes": []string{"events:read"}})
		wantError(t, r, http.StatusBadRequest, rule)
		if p := r.Body["problems"].([]any)[0].(map[string]any); p["path"] != "name" || p["code"] != "invalid" {
			t.Fatalf("key name %q: problem %v, want one about name", name, p)
		}
		wantError(t, env.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": name}), http.StatusBadRequest, rule)
	}
	r := env.Admin(t, http.MethodPost, "/admin/organizers/"+org+"/members", map[string]any{"email": "bo@example.com\n2026-11-28 key.revoked", "role": "admin"})
	wantError(t, r, http.StatusBadRequest, []any{"email must be an ASCII e-mail address such as ana@example.com"})

	if a := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/audit", nil); a.Body["total"] != 0.0 {
		t.Fatalf("refused changes were recorded: %s", a.Raw)
	}
	// Names in any script, with the joiners of emoji sequences and of Persian words, are names.
	for _, name := range []string{"Lucía García", "Iron Pair 🏋️‍♀️", "می\u200cخواهم"} {
		if k := env.Key(t, org, map[string]any{"type": "secret", "name": name, "scopes": []string{"events:read"}}); k["name"] != name {
			t.Fatalf("key name %q came back as %v", name, k["name"])
		}
	}
}
