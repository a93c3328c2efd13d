// Package cli is the operator command line: a client of the catalog admin API (libs/admin)
// that imports event files and lists an organizer's events.
package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/services/catalog/internal/api"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// Usage describes the operator commands.
const Usage = `Operator commands (HTTP client of the admin API at CATALOG_ADMIN_URL, token CATALOG_OPERATOR_TOKEN):

  catalog import --organizer ORG --file event.yaml [--json]
                 imports (creates or updates) the event the file describes; .json files are
                 read as JSON, anything else as YAML; a file with problems is not sent
  catalog events list --organizer ORG [--limit N] [--offset N] [--json]
`

// Commands are the operator commands by name.
var Commands = command.Set[*admin.Client]{
	"import":      importEvent,
	"events list": listEvents,
}

func importEvent(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("import")
	org, file, asJSON := f.Required("organizer", "organizer id"), f.Required("file", "event file (YAML or JSON)"), f.JSON()
	if err := f.Parse(args); err != nil {
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
		return admin.BadInput("the event file", err)
	}
	doc, err := importfile.ToJSON(format, body)
	if err != nil {
		return admin.BadInput("the event file", err)
	}
	path := "/admin/organizers/" + url.PathEscape(*org) + "/events/" + url.PathEscape(draft.ExternalID)
	answer, err := c.Call(ctx, http.MethodPut, path, json.RawMessage(doc))
	switch {
	case err != nil:
		return err
	case *asJSON:
		return command.JSON(out, answer.Body)
	}
	return printImported(out, answer.Body, answer.Header.Get(api.HeaderImportResult))
}

func listEvents(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
	f := command.NewFlags("events list")
	org, page, asJSON := f.Required("organizer", "organizer id"), f.Page(), f.JSON()
	if err := f.Parse(args); err != nil {
		return err
	}
	return admin.Show(ctx, c, out, *asJSON, http.MethodGet, "/admin/organizers/"+url.PathEscape(*org)+"/events"+page.Query(), nil, printEvents)
}
