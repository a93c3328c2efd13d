package cli_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
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

// TestAuditListEscapesWhatWasStoredRaw: a row written before names were checked, holding a line
// break, an ANSI sequence and a direction override, prints as one escaped line of the table and
// escaped in the JSON, so it can neither forge an entry nor hide one.
func TestAuditListEscapesWhatWasStoredRaw(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	forged := "secret key ci\n2026-11-28T10:00:00Z  operator  10.0.0.7  key.revoked  key_forged  secret key prod\x1b[2K\u202e"
	if _, err := env.Pool.Exec(t.Context(), `INSERT INTO audit_log (organizer_id, actor, address, action, subject_id, detail, at)
		VALUES ($1, 'operator', '10.0.0.7', 'key.created', 'key_raw', $2, '2026-11-28T09:00:00Z')`, org, forged); err != nil {
		t.Fatal(err)
	}

	out := mustRun(t, env, "audit", "list", "--organizer", org)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "AT") || !strings.HasPrefix(lines[2], "Total: 1") {
		t.Fatalf("one entry must print as one line between the header and the total:\n%s", out)
	}
	want := `2026-11-28T09:00:00Z  operator  10.0.0.7  key.created  key_raw  ` + strconv.Quote(forged)
	if strings.Join(strings.Fields(lines[1]), "  ") != strings.Join(strings.Fields(want), "  ") {
		t.Fatalf("entry line:\n%s\nwant\n%s", lines[1], want)
	}
	if strings.ContainsAny(out, "\x1b\u202e\t") {
		t.Fatalf("control characters reached the terminal: %q", out)
	}

	out = mustRun(t, env, "audit", "list", "--organizer", org, "--json")
	if strings.ContainsAny(out, "\x1b\u202e\t") || !strings.Contains(out, `prod\u001b[2K\u202e"`) {
		t.Fatalf("--json printed control characters unescaped: %q", out)
	}
	var page struct {
		Data []struct {
			Detail string `json:"detail"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil || len(page.Data) != 1 || page.Data[0].Detail != forged {
		t.Fatalf("--json no longer holds the stored detail: %v %s", err, out)
	}
}
