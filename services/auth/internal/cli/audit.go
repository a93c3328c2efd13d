package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"text/tabwriter"
	"time"

	"github.com/podiumhq/podium/libs/peer"
)

// auditEntry is one recorded change of an organization as the admin API returns it.
type auditEntry struct {
	ID        int64     `json:"id"`
	Actor     string    `json:"actor"`
	Address   string    `json:"address"`
	Action    string    `json:"action"`
	SubjectID string    `json:"subjectId"`
	Detail    string    `json:"detail"`
	At        time.Time `json:"at"`
}

func auditList(ctx context.Context, c *peer.Client, args []string, out io.Writer) error {
	f := newFlags("audit list")
	org := f.String("organizer", "", "organizer id")
	limit, offset := f.Int("limit", 50, "page size (1-100)"), f.Int("offset", 0, "items to skip")
	if err := f.parse(args, map[string]*string{"organizer": org}); err != nil {
		return err
	}
	b, err := call(ctx, c, http.MethodGet, "/admin/organizers/"+url.PathEscape(*org)+"/audit"+pageQuery(*limit, *offset), nil)
	if err != nil {
		return err
	}
	return render(out, b, f.json, printAuditLog)
}

func printAuditLog(out io.Writer, l list[auditEntry]) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tACTOR\tADDRESS\tACTION\tSUBJECT\tDETAIL")
	for _, e := range l.Data {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", stamp(&e.At), text(e.Actor), orDash(text(e.Address)), text(e.Action), text(e.SubjectID), text(e.Detail))
	}
	_ = tw.Flush()
	fmt.Fprintln(out, total(len(l.Data), l.Offset, l.Total))
}

// orDash shows an empty value as "-", so a table's columns stay aligned.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
