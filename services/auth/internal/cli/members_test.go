package cli_test

import (
	"errors"
	"testing"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

func TestMemberCommands(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})

	out := mustRun(t, env, "organizer", "create", "--name", "Trail Club", "--owner", "Ana@Example.com")
	org := find(t, out, `^Created organizer (org_\w+) \(Trail Club\) at \S+Z\.\n`)
	owner := find(t, out, `\nAdded member (mbr_\w+) \(ana@example\.com, owner\) of organizer `+org+`\.\n$`)

	out = mustRun(t, env, "member", "add", "--organizer", org, "--email", "bo@example.com", "--role", "admin")
	bo := find(t, out, `^Added member (mbr_\w+) \(bo@example\.com, admin\) of organizer `+org+`\.\n$`)
	out = mustRun(t, env, "member", "list", "--organizer", org)
	find(t, out, `(?m)^ID\s+EMAIL\s+ROLE\s+CREATED\s+UPDATED$`)
	find(t, out, `(?m)^`+owner+`\s+ana@example\.com\s+owner\s+\S+Z\s+\S+Z$`)
	find(t, out, `Total: 2 \(showing 1-2\)`)

	out = mustRun(t, env, "member", "role", "--organizer", org, "--member", bo, "--role", "member")
	find(t, out, `^Updated member `+bo+` \(bo@example\.com, member\)`)
	out = mustRun(t, env, "member", "remove", "--organizer", org, "--member", bo)
	find(t, out, `^Removed member `+bo+` \(bo@example\.com, member\)`)

	_, err := run(t, env, authtest.OperatorToken, "member", "remove", "--organizer", org, "--member", owner)
	if got := admin.Explain(err); got != "admin API DELETE /admin/organizers/"+org+"/members/"+owner+" answered 409: an organization must keep at least one owner" {
		t.Fatalf("removing the last owner: %s", got)
	}
	for _, args := range [][]string{
		{"member", "add", "--organizer", org, "--email", "x@example.com"}, {"member", "list"},
		{"member", "role", "--organizer", org, "--member", owner}, {"member", "remove", "--organizer", org},
	} {
		if _, err := run(t, env, authtest.OperatorToken, args...); !errors.Is(err, service.ErrUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}
