// Package cli is the operator command line: a client of the auth admin API (libs/admin) that
// manages organizers, their API keys and members, and reads their audit log.
package cli

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/command"
)

// Usage describes the operator commands.
const Usage = `Operator commands (HTTP client of the admin API at AUTH_ADMIN_URL, token AUTH_OPERATOR_TOKEN):

  auth organizer create --name NAME [--owner EMAIL] [--json]
  auth organizer list [--limit N] [--offset N] [--json]
  auth key create --organizer ID --type secret|publishable --name NAME [--mode live|test]
                  [--scopes events:read,pricing:read,registrations:read,registrations:write,webhooks:write,checkins:write,refunds:write]
                  [--origins https://a.example,https://b.example] [--expires 2027-01-01T00:00:00Z] [--json]
  auth key list --organizer ID [--mode live|test] [--limit N] [--offset N] [--json]
  auth key revoke --key ID [--json]
  auth member add --organizer ID --email EMAIL --role owner|admin|member [--json]
  auth member list --organizer ID [--limit N] [--offset N] [--json]
  auth member role --organizer ID --member ID --role owner|admin|member [--json]
  auth member remove --organizer ID --member ID [--json]
  auth audit list --organizer ID [--limit N] [--offset N] [--json]
  auth member sign-in-link --email EMAIL [--json]   a single-use console sign-in link
`

// Commands are the operator commands by name.
var Commands = command.Set[*admin.Client]{
	"organizer create":    organizerCreate,
	"organizer list":      organizerList,
	"key create":          keyCreate,
	"key list":            keyList,
	"key revoke":          keyRevoke,
	"member add":          memberAdd,
	"member list":         memberList,
	"member role":         memberRole,
	"member remove":       memberRemove,
	"member sign-in-link": memberSignInLink,
	"audit list":          auditList,
}

func organizerCreate(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("organizer create")
	name, owner, asJSON := f.Required("name", "organizer name"), f.String("owner", "", "e-mail of the first owner"), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodPost, "/admin/organizers", map[string]string{"name": *name, "owner": *owner}, printOrganizer)
}

func organizerList(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("organizer list")
	page, asJSON := f.Page(), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodGet, "/admin/organizers"+page.Query(), nil, printOrganizers)
}

func keyCreate(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("key create")
	org, typ, name := f.Required("organizer", "organizer id"), f.Required("type", "secret or publishable"), f.Required("name", "key name")
	scopes, origins := f.String("scopes", "", "comma-separated scopes (secret keys)"), f.String("origins", "", "comma-separated allowed origins (publishable keys)")
	expires, asJSON := f.String("expires", "", "RFC 3339 expiry time"), f.JSON()
	mode := f.String("mode", "live", "live, or test for a key that works on test data only")
	if err := f.Parse(args); err != nil {
		return err
	}
	body := map[string]any{"type": *typ, "mode": *mode, "name": *name, "scopes": command.SplitList(*scopes), "allowedOrigins": command.SplitList(*origins)}
	if *expires != "" {
		body["expiresAt"] = *expires
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodPost, "/admin/organizers/"+url.PathEscape(*org)+"/keys", body, printCreatedKey)
}

func keyList(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("key list")
	org, page, asJSON := f.Required("organizer", "organizer id"), f.Page(), f.JSON()
	mode := f.String("mode", "", "live or test: only the keys of that mode (default both)")
	if err := f.Parse(args); err != nil {
		return err
	}
	q := page.Query()
	if *mode != "" {
		q += "&mode=" + url.QueryEscape(*mode)
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodGet, "/admin/organizers/"+url.PathEscape(*org)+"/keys"+q, nil, printKeys)
}

func keyRevoke(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("key revoke")
	id, asJSON := f.Required("key", "key id"), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodPost, "/admin/keys/"+url.PathEscape(*id)+"/revoke", nil, printRevokedKey)
}

func auditList(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("audit list")
	org, page, asJSON := f.Required("organizer", "organizer id"), f.Page(), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodGet, "/admin/organizers/"+url.PathEscape(*org)+"/audit"+page.Query(), nil, printAuditLog)
}
