package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// printJSON prints the admin API's answer b indented, every text in it escaped for a terminal
// (safetext.EscapeJSON).
func printJSON(out io.Writer, b []byte) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return fmt.Errorf("admin API answered invalid JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err := out.Write(safetext.EscapeJSON(buf.Bytes()))
	return err
}

// text is a text of the admin API as the terminal shows it: escaped and quoted when it holds
// control characters (safetext.Escape), so that no name, even one stored before names were
// checked, can start a line, move the cursor or reorder what follows.
func text(s string) string { return safetext.Escape(s) }

// printImported summarises the event an import answered, result being its outcome (created,
// updated or unchanged).
func printImported(out io.Writer, answer []byte, result string) error {
	var e importfile.File
	if err := json.Unmarshal(answer, &e); err != nil {
		return fmt.Errorf("admin API answered invalid JSON: %w", err)
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

func printEvents(out io.Writer, b []byte) error {
	var page struct {
		Data   []importfile.File `json:"data"` // the summary fields of a stored event
		Total  int               `json:"total"`
		Offset int               `json:"offset"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("admin API answered invalid JSON: %w", err)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEXTERNAL ID\tNAME\tSTATUS\tPRIVATE\tDATES\tVERSION\tUPDATED")
	for _, e := range page.Data {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%t\t%s..%s\t%d\t%s\n", text(e.ID), text(e.ExternalID), text(e.Name),
			text(e.Status), e.Private, text(e.StartDate), text(e.EndDate), e.Version, e.UpdatedAt.UTC().Format(time.RFC3339))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(page.Data) == 0 {
		_, err := fmt.Fprintf(out, "Total: %d\n", page.Total)
		return err
	}
	_, err := fmt.Fprintf(out, "Total: %d (showing %d-%d)\n", page.Total, page.Offset+1, page.Offset+len(page.Data))
	return err
}
