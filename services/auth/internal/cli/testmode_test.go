package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// TestKeyCreateInTestMode mints a test key with --mode test, lists the modes apart and sees
// a live key by default.
func TestKeyCreateInTestMode(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")

	out := mustRun(t, env, "key", "create", "--organizer", org, "--type", "secret", "--name", "sandbox",
		"--scopes", "events:read", "--mode", "test")
	testID := find(t, out, `Created secret key (key_\w+) \(sandbox\) for organizer `+org)
	find(t, out, `\nMode: test\n`)
	full := find(t, out, `\n    (pdm_sk_test_\w{38})\n`)
	if typ, mode, err := apikey.Parse(full); err != nil || typ != apikey.Secret || mode != apikey.Test {
		t.Fatalf("test key %q: %s %s %v", full, typ, mode, err)
	}

	out = mustRun(t, env, "key", "create", "--organizer", org, "--type", "publishable", "--name", "site",
		"--origins", "https://shop.example", "--json")
	var live map[string]any
	if err := json.Unmarshal([]byte(out), &live); err != nil || live["mode"] != "live" || !strings.HasPrefix(live["key"].(string), "pdm_pk_live_") {
		t.Fatalf("default mode: %v %s", err, out)
	}

	out = mustRun(t, env, "key", "list", "--organizer", org)
	find(t, out, `(?m)^`+testID+`\s+secret\s+test\s+sandbox\s+pdm_sk_test_\.\.\.`+full[len(full)-4:]+`\s`)
	find(t, out, `(?m)^`+live["id"].(string)+`\s+publishable\s+live\s+site\s+pdm_pk_live_\.\.\.`)

	out = mustRun(t, env, "key", "list", "--organizer", org, "--mode", "test")
	if !strings.Contains(out, testID) || strings.Contains(out, live["id"].(string)) {
		t.Fatalf("--mode test lists:\n%s", out)
	}
	find(t, out, `Total: 1 \(showing 1-1\)`)

	_, err := run(t, env, authtest.OperatorToken, "key", "create", "--organizer", org, "--type", "secret", "--name", "x",
		"--scopes", "events:read", "--mode", "sandbox")
	if got := admin.Explain(err); got != "admin API POST /admin/organizers/"+org+"/keys answered 400: mode must be one of live, test" {
		t.Fatalf("unknown mode: %s", got)
	}
}
