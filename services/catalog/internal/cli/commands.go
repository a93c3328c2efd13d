package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// Usage describes the operator commands.
const Usage = `Operator commands (HTTP client of the admin API at CATALOG_ADMIN_URL, token CATALOG_OPERATOR_TOKEN):

  catalog import --organizer ORG --file event.yaml [--json]
                 imports (creates or updates) the event the file describes; .json files are
                 read as JSON, anything else as YAML; a file with problems is not sent
  catalog events list --organizer ORG [--limit N] [--offset N] [--json]
`

// Run executes one operator command, args being what follows the program name (for example
// ["import", "--organizer", "org_…", "--file", "event.yaml"]), and writes its result to out.
func Run(ctx context.Context, c *Client, args []string, out io.Writer) error {
	switch {
	case len(args) >= 1 && args[0] == "import":
		return importEvent(ctx, c, args[1:], out)
	case len(args) >= 2 && args[0] == "events" && args[1] == "list":
		return listEvents(ctx, c, args[2:], out)
	case len(args) == 0:
		return fmt.Errorf("%w: expected a command", service.ErrUsage)
	}
	return fmt.Errorf("%w: unknown command %q", service.ErrUsage, strings.Join(args[:min(2, len(args))], " "))
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

func importEvent(ctx context.Context, c *Client, args []string, out io.Writer) error {
	f := newFlags("import")
	org, file := f.String("organizer", "", "organizer id"), f.String("file", "", "event file (YAML or JSON)")
	if err := f.parse(args, map[string]*string{"organizer": org, "file": file}); err != nil {
		return err
	}
	body, err := os.ReadFile(*file)
	if err != nil {
		return fmt.Errorf("read event file: %w", err)
	}
	format := importfile.YAML
	if strings.EqualFold(filepath.Ext(*file), ".json") {
		format = importfile.JSON
	}
	// Checked here first, so that every problem of the file is listed (the admin API's refusals
	// reach this client as one message), then sent as JSON.
	draft, err := importfile.Parse(format, body)
	if err != nil {
		return err
	}
	doc, err := importfile.ToJSON(format, body)
	if err != nil {
		return err
	}
	path := "/admin/organizers/" + url.PathEscape(*org) + "/events/" + url.PathEscape(draft.ExternalID)
	answer, result, err := c.call(ctx, http.MethodPut, path, json.RawMessage(doc))
	if err != nil {
		return err
	}
	if f.json {
		return printJSON(out, answer)
	}
	return printImported(out, answer, result)
}

func listEvents(ctx context.Context, c *Client, args []string, out io.Writer) error {
	f := newFlags("events list")
	org := f.String("organizer", "", "organizer id")
	limit, offset := f.Int("limit", 50, "page size (1-100)"), f.Int("offset", 0, "events to skip")
	if err := f.parse(args, map[string]*string{"organizer": org}); err != nil {
		return err
	}
	path := "/admin/organizers/" + url.PathEscape(*org) + "/events?limit=" + strconv.Itoa(*limit) + "&offset=" + strconv.Itoa(*offset)
	answer, _, err := c.call(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if f.json {
		return printJSON(out, answer)
	}
	return printEvents(out, answer)
}
