package cli_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestAuditListCommand(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	out := mustRun(t, env, "organizer", "create", "--name", "Trail Club")
	org := find(t, out, `^Created organizer (org_\w+) `)
	out = mustRun(t, env, "member", "add", "--organizer", org, "--email", "bo@example.com", "--role", "admin")
	bo := find(t, out, `^Added member (mbr_\w+) `)
	mustRun(t, env, "member", "role", "--organizer", org, "--member", bo, "--role", "member")

	out = mustRun(t, env, "audit", "list", "--organizer", org)
	find(t, out, `(?m)^AT\s+ACTOR\s+ADDRESS\s+ACTION\s+SUBJECT\s+DETAIL$`)
	find(t, out, `(?m)^\S+Z\s+operator\s+127\.0\.0\.1\s+member\.role_changed\s+`+bo+`\s+bo@example\.com: admin → member$`)
	find(t, out, `(?m)^\S+Z\s+operator\s+127\.0\.0\.1\s+member\.added\s+`+bo+`\s+bo@example\.com as admin$`)
	find(t, out, `Total: 2 \(showing 1-2\)`)

	out = mustRun(t, env, "audit", "list", "--organizer", org, "--limit", "1", "--offset", "1", "--json")
	var page struct {
		Data []struct {
			Action string `json:"action"`
		} `json:"data"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil || page.Total != 2 || len(page.Data) != 1 || page.Data[0].Action != "member.added" {
		t.Fatalf("audit list --json: %v\n%s", err, out)
	}
	if _, err := run(t, env, authtest.OperatorToken, "audit", "list"); !errors.Is(err, service.ErrUsage) {
		t.Fatalf("audit list without --organizer: %v, want a usage error", err)
	}
}
