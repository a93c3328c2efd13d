package cli_test

import (
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/admintest"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/cli"
)

// operator runs the operator commands against env's admin API.
func operator(env *authtest.Env) admintest.Operator {
	return admintest.Operator{Commands: cli.Commands, URL: env.URL + "/"}
}

func run(t *testing.T, env *authtest.Env, token string, args ...string) (string, error) {
	t.Helper()
	return operator(env).Run(t, token, args...)
}

func mustRun(t *testing.T, env *authtest.Env, args ...string) string {
	t.Helper()
	return operator(env).MustRun(t, authtest.OperatorToken, args...)
}

var find = admintest.Find

func TestOperatorCommands(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})

	out := mustRun(t, env, "organizer", "create", "--name", "Trail Club")
	org := find(t, out, `^Created organizer (org_\w+) \(Trail Club\) at \S+Z\.\n$`)
	out = mustRun(t, env, "organizer", "list")
	find(t, out, `(?m)^ID\s+NAME\s+CREATED$`)
	find(t, out, `(?m)^`+org+`\s+Trail Club\s+\S+Z$`)
	find(t, out, `Total: 1 \(showing 1-1\)`)

	out = mustRun(t, env, "key", "create", "--organizer", org, "--type", "secret", "--name", "backend",
		"--scopes", "events:read, registrations:write,webhooks:write", "--expires", "2099-01-01T00:00:00Z")
	secretID := find(t, out, `Created secret key (key_\w+) \(backend\) for organizer `+org)
	find(t, out, `Scopes: events:read,registrations:write,webhooks:write\n`)
	find(t, out, `Expires: 2099-01-01T00:00:00Z\n`)
	secret := find(t, out, `\n    (pdm_sk_live_\w{38})\n`)
	find(t, out, `This key will not be shown again`)

	out = mustRun(t, env, "key", "create", "--organizer", org, "--type", "publishable", "--name", "site",
		"--origins", "https://Shop.Example,http://localhost:3000", "--json")
	var created map[string]any
	if err := json.Unmarshal([]byte(out), &created); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if !strings.HasPrefix(created["key"].(string), "pdm_pk_live_") || created["type"] != "publishable" {
		t.Fatalf("created publishable key %v", created)
	}

	out = mustRun(t, env, "key", "revoke", "--key", secretID)
	find(t, out, `Key `+secretID+` \(backend, pdm_sk_live_\.\.\.`+secret[len(secret)-4:]+`\) is revoked since \S+Z\.`)

	out = mustRun(t, env, "key", "list", "--organizer", org)
	if strings.Contains(out, secret) {
		t.Fatal("the listing shows a full key")
	}
	find(t, out, `(?m)^ID\s+TYPE\s+MODE\s+NAME\s+KEY\s+SCOPES / ORIGINS\s+CREATED\s+LAST USED\s+EXPIRES\s+STATUS$`)
	find(t, out, `(?m)^`+created["id"].(string)+`\s+publishable\s+live\s+site\s+pdm_pk_live_\.\.\.\w{4}\s+https://shop.example,http://localhost:3000\s+\S+Z\s+never\s+never\s+active$`)
	find(t, out, `(?m)^`+secretID+`\s+secret\s+live\s+backend\s+pdm_sk_live_\.\.\.\w{4}\s+events:read,registrations:write,webhooks:write\s+\S+Z\s+never\s+2099-01-01T00:00:00Z\s+revoked$`)
	find(t, out, `Total: 2 \(showing 1-2\)`)

	out = mustRun(t, env, "key", "list", "--organizer", org, "--json", "--limit", "1")
	var list struct {
		Data  []map[string]any `json:"data"`
		Total int              `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Total != 2 || len(list.Data) != 1 {
		t.Fatalf("key list --json: %v\n%s", err, out)
	}
}

func TestOperatorCommandErrors(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")

	// What an operator reads: the request and the admin API's status and messages.
	_, err := run(t, env, authtest.OperatorToken, "key", "create", "--organizer", org, "--type", "secret", "--name", "x", "--scopes", "events:read,events:write", "--expires", "2001-01-01T00:00:00Z")
	if got := admin.Explain(err); got != "admin API POST /admin/organizers/"+org+"/keys answered 400: "+
		"scopes[1] must be one of events:read, pricing:read, registrations:read, registrations:write, webhooks:write, checkins:write, refunds:write; expiresAt must be in the future" {
		t.Fatalf("invalid key: %s", got)
	}
	_, err = run(t, env, authtest.OperatorToken, "key", "revoke", "--key", "key_missing")
	if got := admin.Explain(err); !errors.Is(err, fault.ErrNotFound) || got != "admin API POST /admin/keys/key_missing/revoke answered 404: key not found" {
		t.Fatalf("unknown key: %v: %s", err, got)
	}
	_, err = run(t, env, "wrong-token", "organizer", "list")
	if got := admin.Explain(err); got != "admin API GET /admin/organizers?limit=50&offset=0 answered 401: the operator token is invalid" {
		t.Fatalf("wrong token: %s", got)
	}
	_, err = admintest.Operator{Commands: cli.Commands, URL: "http://" + closedAddr(t)}.Run(t, authtest.OperatorToken, "organizer", "list")
	if got := admin.Explain(err); !strings.HasPrefix(got, "the admin API is unavailable: GET /admin/organizers") || !strings.Contains(got, "connection refused") {
		t.Fatalf("admin API out of reach: %s", got)
	}
	for _, args := range [][]string{
		{"organizer"}, {"organizer", "delete"}, {"organizer", "create"}, {"key", "list"},
		{"key", "create", "--organizer", org, "--name", "x"}, {"key", "revoke", "--key", "k", "extra"}, {"key", "revoke", "--nope"},
	} {
		if _, err := run(t, env, authtest.OperatorToken, args...); !errors.Is(err, service.ErrUsage) {
			t.Errorf("auth %s: %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}

// closedAddr returns an address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
