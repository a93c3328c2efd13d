package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/podiumhq/podium/libs/admin/command"
)

// event is the part of an event, as the admin API returns it, the commands print.
type event struct {
	ID           string    `json:"id"`
	ExternalID   string    `json:"externalId"`
	Name         string    `json:"name"`
	Status       string    `json:"status"`
	Private      bool      `json:"private"`
	StartDate    string    `json:"startDate"`
	EndDate      string    `json:"endDate"`
	PreviewToken string    `json:"previewToken"`
	Version      int64     `json:"version"`
	UpdatedAt    time.Time `json:"updatedAt"`
	Categories   []struct {
		Tiers []json.RawMessage `json:"tiers"`
	} `json:"categories"`
	FormFields  []json.RawMessage `json:"formFields"`
	Waivers     []json.RawMessage `json:"waivers"`
	Sponsors    []json.RawMessage `json:"sponsors"`
	Supplements []json.RawMessage `json:"supplements"`
	Promocodes  []json.RawMessage `json:"promocodes"`
	Fees        []json.RawMessage `json:"fees"`
}

// text is a text of the admin API escaped for the terminal (command.Text).
var text = command.Text

// printImported summarises the event an import answered, result being its outcome (created,
// updated or unchanged).
func printImported(out io.Writer, answer []byte, result string) error {
	var e event
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

func printEvents(out io.Writer, l command.List[event]) error {
	return command.PrintList(out, l, []string{"ID", "EXTERNAL ID", "NAME", "STATUS", "PRIVATE", "DATES", "VERSION", "UPDATED"}, func(e event) []string {
		return []string{e.ID, e.ExternalID, e.Name, e.Status, strconv.FormatBool(e.Private), e.StartDate + ".." + e.EndDate,
			strconv.FormatInt(e.Version, 10), command.Stamp(&e.UpdatedAt)}
	})
}
