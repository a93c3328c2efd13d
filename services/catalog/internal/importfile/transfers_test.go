package importfile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// TestTransfersUntil reads the end of transfers as a date (00:00 in the event's time zone) or a
// date-time, leaves it unset when absent, and refuses anything else with its path.
func TestTransfersUntil(t *testing.T) {
	for body, want := range map[string]time.Time{
		"transfersUntil: 2027-04-01\n":                    time.Date(2027, 3, 31, 22, 0, 0, 0, time.UTC),
		"transfersUntil: \"2027-04-01T08:30:00+02:00\"\n": time.Date(2027, 4, 1, 6, 30, 0, 0, time.UTC),
	} {
		e, err := importfile.Parse(importfile.YAML, []byte(head+body))
		if err != nil || e.TransfersUntil == nil || !e.TransfersUntil.Equal(want) {
			t.Fatalf("%q: %v (%v), want %v", body, e.TransfersUntil, err, want)
		}
	}
	if e, err := importfile.Parse(importfile.YAML, []byte(head)); err != nil || e.TransfersUntil != nil {
		t.Fatalf("absent: %v (%v)", e.TransfersUntil, err)
	}
	got := problems(t, importfile.YAML, head+"transfersUntil: soon\n")
	if len(got) != 1 || !strings.HasPrefix(got[0], "transfersUntil") {
		t.Fatalf("problems %q", got)
	}
}
