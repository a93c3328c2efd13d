package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// text is a text of the admin API escaped for the terminal (command.Text).
var text = command.Text

// printImported summarises the event an import answered, result being its outcome (created,
// updated or unchanged).
func printImported(out io.Writer, answer []byte, result string) error {
	var e importfile.File
	if err := json.Unmarshal(answer, &e); err != nil {
		return fmt.Errorf("admin API answered an unexpected body: %w", err)
	}
	verb := map[string]string{"created": "Created", "updated": "Updated", "unchanged": "Unchanged"}[result]
	if verb == "" {
		verb = "Imported"
	}
	tiers := 0
	for _, c := range e.Categories {
		tiers += len(c.Tiers)
	}
	visibility := "public"
	if e.Private {
		visibility = "private"
	}
	_, err := fmt.Fprintf(out, "%s event %s (%s): %s, %s, %s, version %d.\n"+
		"Categories %d (tiers %d), form fields %d, waivers %d, sponsors %d, supplements %d, promocodes %d, fees %d.\n"+
		"Preview token: %s\n",
		verb, text(e.ID), text(e.ExternalID), text(e.Name), text(e.Status), visibility, e.Version,
		len(e.Categories), tiers, len(e.FormFields), len(e.Waivers), len(e.Sponsors), len(e.Supplements), len(e.Promocodes), len(e.Fees),
		text(e.PreviewToken))
	return err
}

// printEvents prints a page of stored events, summarised (importfile.File is the admin API's
// view of an event).
func printEvents(out io.Writer, l command.List[importfile.File]) error {
	return command.PrintList(out, l, []string{"ID", "EXTERNAL ID", "NAME", "STATUS", "PRIVATE", "DATES", "VERSION", "UPDATED"}, func(e importfile.File) []string {
		return []string{e.ID, e.ExternalID, e.Name, e.Status, strconv.FormatBool(e.Private), e.StartDate + ".." + e.EndDate,
			strconv.FormatInt(e.Version, 10), command.Stamp(&e.UpdatedAt)}
	})
}
