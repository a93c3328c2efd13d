package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/podiumhq/podium/libs/safetext"
)

// Text is s as a terminal shows it: as it is, or quoted with Go's escapes when it holds a
// control or invisible character (safetext.Escape), so that no name, even one stored before
// names were checked, can start a line, move the cursor or reorder what follows.
func Text(s string) string { return safetext.Escape(s) }

// Stamp is t in UTC to the second, or "never" for no time.
func Stamp(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// OrDash is s, or "-" when it is empty, so that a table's columns stay aligned.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// List is a page of a list as the admin APIs answer it.
type List[T any] struct {
	Data   []T `json:"data"`
	Total  int `json:"total"`
	Offset int `json:"offset"`
}

// PrintList prints l as a table under columns, one row (row's cells, each escaped with Text)
// an item, then its total and the items shown.
func PrintList[T any](out io.Writer, l List[T], columns []string, row func(T) []string) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	writeRow(tw, columns)
	for _, v := range l.Data {
		cells := row(v)
		for i, c := range cells {
			cells[i] = Text(c)
		}
		writeRow(tw, cells)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out, total(len(l.Data), l.Offset, l.Total))
	return err
}

func writeRow(w io.Writer, cells []string) {
	for i, c := range cells {
		if i > 0 {
			_, _ = io.WriteString(w, "\t")
		}
		_, _ = io.WriteString(w, c)
	}
	_, _ = io.WriteString(w, "\n")
}

func total(shown, offset, all int) string {
	switch {
	case shown > 0:
		return fmt.Sprintf("Total: %d (showing %d-%d)", all, offset+1, offset+shown)
	case offset > 0:
		return fmt.Sprintf("Total: %d (none shown at offset %d)", all, offset)
	}
	return fmt.Sprintf("Total: %d", all)
}

// JSON prints the JSON text b indented, every text in it escaped (safetext.EscapeJSON).
func JSON(out io.Writer, b []byte) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err := out.Write(safetext.EscapeJSON(buf.Bytes()))
	return err
}

// JSONLine prints v as one line of JSON, every text in it escaped (safetext.EscapeJSON).
func JSONLine(out io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = out.Write(append(safetext.EscapeJSON(b), '\n'))
	return err
}
