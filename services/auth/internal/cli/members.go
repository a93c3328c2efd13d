package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/services/auth/internal/api"
)

func membersPath(organizerID string) string {
	return "/admin/organizers/" + url.PathEscape(organizerID) + "/members"
}

func memberAdd(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("member add")
	org, email, role := f.Required("organizer", "organizer id"), f.Required("email", "member e-mail"), f.Required("role", "owner, admin or member")
	asJSON := f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodPost, membersPath(*org), map[string]string{"email": *email, "role": *role}, printMemberAs("Added"))
}

func memberList(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("member list")
	org, page, asJSON := f.Required("organizer", "organizer id"), f.Page(), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodGet, membersPath(*org)+page.Query(), nil, printMembers)
}

func memberRole(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("member role")
	org, id, role := f.Required("organizer", "organizer id"), f.Required("member", "member id"), f.Required("role", "owner, admin or member")
	asJSON := f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodPatch, membersPath(*org)+"/"+url.PathEscape(*id), map[string]string{"role": *role}, printMemberAs("Updated"))
}

func memberRemove(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("member remove")
	org, id, asJSON := f.Required("organizer", "organizer id"), f.Required("member", "member id"), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodDelete, membersPath(*org)+"/"+url.PathEscape(*id), nil, printMemberAs("Removed"))
}

func memberSignInLink(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("member sign-in-link")
	email, asJSON := f.Required("email", "member e-mail"), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodPost, "/admin/sign-in-links", map[string]string{"email": *email}, func(out io.Writer, l api.SignInLinkView) error {
		_, err := fmt.Fprintf(out, "Console sign-in link for %s (single use, any browser, until %s):\n%s\n", command.Text(l.Email), command.Stamp(&l.ExpiresAt), command.Text(l.URL))
		return err
	})
}
