package events_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/podiumhq/podium/services/catalog/events"
)

// TestObjectsAreTheOrganizerAPIsSchemas: the objects of the catalog's messages are the
// organizer API's views, so each schema's $defs named after a component of
// libs/apispec/openapi.yaml are that component (references to #/$defs, descriptions of
// examples and x- keywords left out).
func TestObjectsAreTheOrganizerAPIsSchemas(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "libs", "apispec", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := yaml.YAMLToJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(events.Files, "*/*.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, file := range files {
		b, err := fs.ReadFile(events.Files, file)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Defs map[string]any `json:"$defs"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		for name, def := range schema.Defs {
			component, ok := doc.Components.Schemas[name]
			if !ok {
				continue
			}
			compared++
			if want := asDef(component); !reflect.DeepEqual(def, want) {
				got, _ := json.Marshal(def)
				w, _ := json.Marshal(want)
				t.Errorf("%s: $defs/%s differs from the API's component:\n got %s\nwant %s", file, name, got, w)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no $defs compared")
	}
}

// asDef is an OpenAPI component as a $defs entry of an event schema.
func asDef(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch {
			case strings.HasPrefix(k, "x-"), k == "example", k == "examples":
			case k == "$ref":
				out[k] = strings.Replace(x.(string), "#/components/schemas/", "#/$defs/", 1)
			default:
				out[k] = asDef(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = asDef(x)
		}
		return out
	}
	return v
}
