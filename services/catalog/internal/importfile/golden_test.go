package importfile_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestParseGolden pins the event read from a file with every optional part present and from
// one with every optional part absent.
func TestParseGolden(t *testing.T) {
	for _, name := range []string{"rich", "bare"} {
		body, err := os.ReadFile("testdata/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		e, err := importfile.Parse(importfile.YAML, body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := json.MarshalIndent(e, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := "testdata/" + name + ".event.json"
		if *update {
			if err := os.WriteFile(path, got, 0o600); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run the test with -update to write it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s changed:\n%s", path, got)
		}
	}
}
