package catalogtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// Demo returns the demo event file with the given name (summer-throwdown, winter-draft,
// members-only) from services/catalog/demo.
func Demo(t testing.TB, name string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	b, err := fs.ReadFile(os.DirFS(filepath.Join(filepath.Dir(here), "..", "..", "demo")), name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ExternalIDOf returns the externalId of a valid YAML event file.
func ExternalIDOf(t testing.TB, file string) string {
	t.Helper()
	e, err := importfile.Parse(importfile.YAML, []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	return e.ExternalID
}

// Event returns a minimal valid event file with the given externalId, status and private
// flag, plus extra YAML appended at the top level.
func Event(externalID, name, status string, private bool, extra ...string) string {
	priv := "false"
	if private {
		priv = "true"
	}
	return "externalId: " + externalID + "\nname: " + name + "\nstatus: " + status + "\nprivate: " + priv +
		"\nstartDate: 2027-06-12\nendDate: 2027-06-13\ntimezone: Europe/Madrid\ncurrency: EUR\n" + strings.Join(extra, "\n") + "\n"
}
