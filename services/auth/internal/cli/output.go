package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/podiumhq/podium/libs/safetext"
)

// organizer is an organizer as the admin API returns it.
type organizer struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// createdOrganizer is a new organizer with its first owner, when one was given.
type createdOrganizer struct {
	organizer
	Owner *member `json:"owner"`
}

// member is a member of an organization as the admin API returns it.
type member struct {
	ID          string    `json:"id"`
	OrganizerID string    `json:"organizerId"`
	Email       string    `json:"email"`
	Role        string    `json:"role"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// key is a key listing as the admin API returns it; Key is set only at creation.
type key struct {
	Key            string     `json:"key"`
	ID             string     `json:"id"`
	OrganizerID    string     `json:"organizerId"`
	Type           string     `json:"type"`
	Name           string     `json:"name"`
	Prefix         string     `json:"prefix"`
	Last4          string     `json:"last4"`
	Scopes         []string   `json:"scopes"`
	AllowedOrigins []string   `json:"allowedOrigins"`
	CreatedAt      time.Time  `json:"createdAt"`
	LastUsedAt     *time.Time `json:"lastUsedAt"`
	ExpiresAt      *time.Time `json:"expiresAt"`
	RevokedAt      *time.Time `json:"revokedAt"`
}

type list[T any] struct {
	Data   []T `json:"data"`
	Total  int `json:"total"`
	Offset int `json:"offset"`
}

// render writes the response b as indented JSON, or decodes it into a T and prints it readably.
// Either way, no text of the answer reaches the terminal unescaped (see text).
func render[T any](out io.Writer, b []byte, asJSON bool, print func(io.Writer, T)) error {
	if asJSON {
		var buf bytes.Buffer
		if err := json.Indent(&buf, b, "", "  "); err != nil {
			return fmt.Errorf("admin API answered with invalid JSON: %w", err)
		}
		buf.WriteByte('\n')
		_, err := out.Write(safetext.EscapeJSON(buf.Bytes()))
		return err
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("admin API answered with an unexpected body: %w", err)
	}
	print(out, v)
	return nil
}

// text is a text of the admin API as the terminal shows it: escaped and quoted when it holds
// control characters (safetext.Escape), so that no name, even one stored before names were
// checked, can start a line, move the cursor or reorder what follows.
func text(s string) string { return safetext.Escape(s) }

func printOrganizer(out io.Writer, o createdOrganizer) {
	fmt.Fprintf(out, "Created organizer %s (%s) at %s.\n", text(o.ID), text(o.Name), stamp(&o.CreatedAt))
	if o.Owner != nil {
		printMemberAs("Added")(out, *o.Owner)
	}
}

// printMemberAs prints a member after the verb of what was done to it.
func printMemberAs(done string) func(io.Writer, member) {
	return func(out io.Writer, m member) {
		fmt.Fprintf(out, "%s member %s (%s, %s) of organizer %s.\n", done, text(m.ID), text(m.Email), text(m.Role), text(m.OrganizerID))
	}
}

func printMembers(out io.Writer, l list[member]) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tROLE\tCREATED\tUPDATED")
	for _, m := range l.Data {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", text(m.ID), text(m.Email), text(m.Role), stamp(&m.CreatedAt), stamp(&m.UpdatedAt))
	}
	_ = tw.Flush()
	fmt.Fprintln(out, total(len(l.Data), l.Offset, l.Total))
}

func printOrganizers(out io.Writer, l list[organizer]) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tCREATED")
	for _, o := range l.Data {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", text(o.ID), text(o.Name), stamp(&o.CreatedAt))
	}
	_ = tw.Flush()
	fmt.Fprintln(out, total(len(l.Data), l.Offset, l.Total))
}

func printCreatedKey(out io.Writer, k key) {
	fmt.Fprintf(out, "Created %s key %s (%s) for organizer %s.\n", text(k.Type), text(k.ID), text(k.Name), text(k.OrganizerID))
	fmt.Fprintf(out, "%s: %s\n", accessLabel(k), access(k))
	fmt.Fprintf(out, "Expires: %s\n\n", stamp(k.ExpiresAt))
	fmt.Fprintf(out, "    %s\n\n", text(k.Key))
	fmt.Fprintln(out, "This key will not be shown again: store it now, for example in a secret manager.")
}

func printRevokedKey(out io.Writer, k key) {
	fmt.Fprintf(out, "Key %s (%s, %s...%s) is revoked since %s.\n", text(k.ID), text(k.Name), text(k.Prefix), text(k.Last4), stamp(k.RevokedAt))
}

func printKeys(out io.Writer, l list[key]) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTYPE\tNAME\tKEY\tSCOPES / ORIGINS\tCREATED\tLAST USED\tEXPIRES\tSTATUS")
	now := time.Now()
	for _, k := range l.Data {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s...%s\t%s\t%s\t%s\t%s\t%s\n", text(k.ID), text(k.Type), text(k.Name), text(k.Prefix), text(k.Last4),
			access(k), stamp(&k.CreatedAt), stamp(k.LastUsedAt), stamp(k.ExpiresAt), status(k, now))
	}
	_ = tw.Flush()
	fmt.Fprintln(out, total(len(l.Data), l.Offset, l.Total))
}

func accessLabel(k key) string {
	if k.Type == "publishable" {
		return "Allowed origins"
	}
	return "Scopes"
}

func access(k key) string {
	if k.Type == "publishable" {
		return text(strings.Join(k.AllowedOrigins, ","))
	}
	return text(strings.Join(k.Scopes, ","))
}

func status(k key, now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case k.ExpiresAt != nil && !k.ExpiresAt.After(now):
		return "expired"
	}
	return "active"
}

// stamp formats t in UTC to the second, or "never" for no time.
func stamp(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

func total(shown, offset, all int) string {
	if shown == 0 {
		return fmt.Sprintf("Total: %d (none shown at offset %d)", all, offset)
	}
	return fmt.Sprintf("Total: %d (showing %d-%d)", all, offset+1, offset+shown)
}
