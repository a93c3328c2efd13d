package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/peer"
)

func membersPath(organizerID string) string {
	return "/admin/organizers/" + url.PathEscape(organizerID) + "/members"
}

func memberAdd(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("member add")
	org, email, role := f.String("organizer", "", "organizer id"), f.String("email", "", "member e-mail"), f.String("role", "", "owner, admin or member")
	if err := f.parse(args, map[string]*string{"organizer": org, "email": email, "role": role}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodPost, membersPath(*org), map[string]string{"email": *email, "role": *role})
	if err != nil {
		return err
	}
	return render(out, b, f.json, printMemberAs("Added"))
}

func memberList(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("member list")
	org := f.String("organizer", "", "organizer id")
	limit, offset := f.Int("limit", 50, "page size (1-100)"), f.Int("offset", 0, "items to skip")
	if err := f.parse(args, map[string]*string{"organizer": org}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodGet, membersPath(*org)+pageQuery(*limit, *offset), nil)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printMembers)
}

func memberRole(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("member role")
	org, id, role := f.String("organizer", "", "organizer id"), f.String("member", "", "member id"), f.String("role", "", "owner, admin or member")
	if err := f.parse(args, map[string]*string{"organizer": org, "member": id, "role": role}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodPatch, membersPath(*org)+"/"+url.PathEscape(*id), map[string]string{"role": *role})
	if err != nil {
		return err
	}
	return render(out, b, f.json, printMemberAs("Updated"))
}

func memberRemove(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("member remove")
	org, id := f.String("organizer", "", "organizer id"), f.String("member", "", "member id")
	if err := f.parse(args, map[string]*string{"organizer": org, "member": id}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodDelete, membersPath(*org)+"/"+url.PathEscape(*id), nil)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printMemberAs("Removed"))
}

// signInLink is an operator's console sign-in link as the admin API returns it.
type signInLink struct {
	URL       string    `json:"url"`
	Email     string    `json:"email"`
	ExpiresAt time.Time `json:"expiresAt"`
}

func memberSignInLink(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("member sign-in-link")
	email := f.String("email", "", "member e-mail")
	if err := f.parse(args, map[string]*string{"email": email}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodPost, "/admin/sign-in-links", map[string]string{"email": *email})
	if err != nil {
		return err
	}
	return render(out, b, f.json, func(out io.Writer, l signInLink) {
		fmt.Fprintf(out, "Console sign-in link for %s (single use, any browser, until %s):\n%s\n", text(l.Email), stamp(&l.ExpiresAt), text(l.URL))
	})
}
