package importfile_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// storedParts are the fields FileOf adds to what a file holds.
var storedParts = []string{"id", "organizerId", "previewToken", "version", "createdAt", "updatedAt", "confirmed", "held", "basisPoints"}

// TestFileOfReimports checks that a stored event in the file's shape, less its stored parts
// and its empty values (a file leaves them out), is a file that imports to the same event.
func TestFileOfReimports(t *testing.T) {
	paths := []string{"testdata/rich.yaml", "testdata/bare.yaml"}
	for _, name := range demoFiles {
		paths = append(paths, "../../demo/"+name+".yaml")
	}
	for _, path := range paths {
		e := parseFile(t, path)
		b, err := json.Marshal(importfile.FileOf(e))
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		dropStoredParts(doc)
		if b, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		again, err := importfile.Parse(importfile.JSON, b)
		if err != nil {
			t.Fatalf("%s: the stored event does not import: %v\n%s", path, err, b)
		}
		if !reflect.DeepEqual(again, e) {
			t.Fatalf("%s: the stored event imports as\n%+v\nwant\n%+v", path, again, e)
		}
	}
}

func dropStoredParts(v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range storedParts {
			delete(v, k)
		}
		for k, child := range v {
			if child == nil || child == "" {
				delete(v, k)
			}
			dropStoredParts(child)
		}
	case []any:
		for _, child := range v {
			dropStoredParts(child)
		}
	}
}
