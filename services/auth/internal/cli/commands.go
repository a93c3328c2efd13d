package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/libs/service"
)

// Usage describes the operator commands.
const Usage = `Operator commands (HTTP client of the admin API at AUTH_ADMIN_URL, token AUTH_OPERATOR_TOKEN):

  auth organizer create --name NAME [--owner EMAIL] [--json]
  auth organizer list [--limit N] [--offset N] [--json]
  auth key create --organizer ID --type secret|publishable --name NAME
                  [--scopes events:read,pricing:read,registrations:read,registrations:write]
                  [--origins https://a.example,https://b.example] [--expires 2027-01-01T00:00:00Z] [--json]
  auth key list --organizer ID [--limit N] [--offset N] [--json]
  auth key revoke --key ID [--json]
  auth member add --organizer ID --email EMAIL --role owner|admin|member [--json]
  auth member list --organizer ID [--limit N] [--offset N] [--json]
  auth member role --organizer ID --member ID --role owner|admin|member [--json]
  auth member remove --organizer ID --member ID [--json]
  auth audit list --organizer ID [--limit N] [--offset N] [--json]
  auth member sign-in-link --email EMAIL [--json]   a single-use console sign-in link
`

// Run executes one operator command, args being what follows the program name (for example
// ["key", "revoke", "--key", "key_..."]), and writes its result to out.
func Run(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	if len(args) < 2 {
		return fmt.Errorf("%w: expected a resource and a command", service.ErrUsage)
	}
	cmd := args[0] + " " + args[1]
	rest := args[2:]
	switch cmd {
	case "organizer create":
		return organizerCreate(ctx, c, rest, out)
	case "organizer list":
		return organizerList(ctx, c, rest, out)
	case "key create":
		return keyCreate(ctx, c, rest, out)
	case "key list":
		return keyList(ctx, c, rest, out)
	case "key revoke":
		return keyRevoke(ctx, c, rest, out)
	case "member add":
		return memberAdd(ctx, c, rest, out)
	case "member list":
		return memberList(ctx, c, rest, out)
	case "member role":
		return memberRole(ctx, c, rest, out)
	case "member remove":
		return memberRemove(ctx, c, rest, out)
	case "audit list":
		return auditList(ctx, c, rest, out)
	case "member sign-in-link":
		return memberSignInLink(ctx, c, rest, out)
	}
	return fmt.Errorf("%w: unknown command %q", service.ErrUsage, cmd)
}

// flags is a flag set for one command with the shared --json flag.
type flags struct {
	*flag.FlagSet
	json bool
}

func newFlags(name string) *flags {
	f := &flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	f.SetOutput(io.Discard)
	f.BoolVar(&f.json, "json", false, "print the API's JSON response")
	return f
}

// parse parses args and checks that every required flag has a value.
func (f *flags) parse(args []string, required map[string]*string) error {
	if err := f.Parse(args); err != nil {
		return fmt.Errorf("%w: %s: %w", service.ErrUsage, f.Name(), err)
	}
	if f.NArg() > 0 {
		return fmt.Errorf("%w: %s: unexpected argument %q", service.ErrUsage, f.Name(), f.Arg(0))
	}
	for name, v := range required {
		if strings.TrimSpace(*v) == "" {
			return fmt.Errorf("%w: %s: --%s is required", service.ErrUsage, f.Name(), name)
		}
	}
	return nil
}

func organizerCreate(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("organizer create")
	name, owner := f.String("name", "", "organizer name"), f.String("owner", "", "e-mail of the first owner")
	if err := f.parse(args, map[string]*string{"name": name}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodPost, "/admin/organizers", map[string]string{"name": *name, "owner": *owner})
	if err != nil {
		return err
	}
	return render(out, b, f.json, printOrganizer)
}

func organizerList(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("organizer list")
	limit, offset := f.Int("limit", 50, "page size (1-100)"), f.Int("offset", 0, "items to skip")
	if err := f.parse(args, nil); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodGet, "/admin/organizers"+pageQuery(*limit, *offset), nil)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printOrganizers)
}

func keyCreate(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("key create")
	org, typ, name := f.String("organizer", "", "organizer id"), f.String("type", "", "secret or publishable"), f.String("name", "", "key name")
	scopes, origins := f.String("scopes", "", "comma-separated scopes (secret keys)"), f.String("origins", "", "comma-separated allowed origins (publishable keys)")
	expires := f.String("expires", "", "RFC 3339 expiry time")
	if err := f.parse(args, map[string]*string{"organizer": org, "type": typ, "name": name}); err != nil {
		return err
	}
	body := map[string]any{"type": *typ, "name": *name, "scopes": splitList(*scopes), "allowedOrigins": splitList(*origins)}
	if *expires != "" {
		body["expiresAt"] = *expires
	}
	b, err := call(ctx, c, http.MethodPost, "/admin/organizers/"+url.PathEscape(*org)+"/keys", body)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printCreatedKey)
}

func keyList(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("key list")
	org := f.String("organizer", "", "organizer id")
	limit, offset := f.Int("limit", 50, "page size (1-100)"), f.Int("offset", 0, "items to skip")
	if err := f.parse(args, map[string]*string{"organizer": org}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodGet, "/admin/organizers/"+url.PathEscape(*org)+"/keys"+pageQuery(*limit, *offset), nil)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printKeys)
}

func keyRevoke(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("key revoke")
	id := f.String("key", "", "key id")
	if err := f.parse(args, map[string]*string{"key": id}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodPost, "/admin/keys/"+url.PathEscape(*id)+"/revoke", nil)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printRevokedKey)
}

func pageQuery(limit, offset int) string {
	return "?limit=" + strconv.Itoa(limit) + "&offset=" + strconv.Itoa(offset)
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	out := []string{}
	for part := range strings.SplitSeq(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}
