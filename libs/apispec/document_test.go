package apispec

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	oas31SchemaURL = "https://spec.openapis.org/oas/3.1/schema/2022-10-07"
	oas31BaseURL   = "https://spec.openapis.org/oas/3.1/schema-base/2022-10-07"
)

// oas31Schema compiles the official OpenAPI 3.1 schema (embedded in
// libopenapi) wrapped like the official "schema-base": every Schema Object of
// the document is also checked against the JSON Schema 2020-12 meta-schema.
func oas31Schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	official, err := jsonschema.UnmarshalJSON(strings.NewReader(datamodel.OpenAPI31SchemaData))
	if err != nil {
		t.Fatalf("decode the OpenAPI 3.1 schema: %v", err)
	}
	if id := official.(map[string]any)["$id"]; id != oas31SchemaURL {
		t.Fatalf("embedded OpenAPI schema is %v, want %s", id, oas31SchemaURL)
	}
	base := map[string]any{
		"$id":     oas31BaseURL,
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$ref":    oas31SchemaURL,
		"$defs": map[string]any{
			"schema": map[string]any{
				"$dynamicAnchor": "meta",
				"$ref":           "https://json-schema.org/draft/2020-12/schema",
			},
		},
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for url, doc := range map[string]any{oas31SchemaURL: official, oas31BaseURL: base} {
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("add %s: %v", url, err)
		}
	}
	s, err := c.Compile(oas31BaseURL)
	if err != nil {
		t.Fatalf("compile the OpenAPI 3.1 schema: %v", err)
	}
	return s
}

func TestDocumentIsValidOpenAPI31(t *testing.T) {
	s := oas31Schema(t)
	doc, err := decodeJSON(Document())
	if err != nil {
		t.Fatalf("Document() is not JSON: %v", err)
	}
	if err := s.Validate(doc); err != nil {
		t.Fatalf("document does not match the OpenAPI 3.1 schema:\n%v", err)
	}

	// The check has teeth: a broken document and a broken Schema Object fail.
	broken := map[string]func(map[string]any){
		"no info": func(d map[string]any) { delete(d, "info") },
		"bad schema keyword": func(d map[string]any) {
			schemas := d["components"].(map[string]any)["schemas"].(map[string]any)
			schemas["Gender"].(map[string]any)["minLength"] = -1
		},
		"bad response key": func(d map[string]any) {
			paths := d["paths"].(map[string]any)
			get := paths["/organizer/events/{eventId}"].(map[string]any)["get"].(map[string]any)
			get["responses"].(map[string]any)["2000"] = map[string]any{"description": "x"}
		},
	}
	for name, breakIt := range broken {
		d, _ := decodeJSON(Document())
		breakIt(d.(map[string]any))
		if s.Validate(d) == nil {
			t.Errorf("%s: broken document passed the OpenAPI 3.1 schema", name)
		}
	}
}

func TestDocumentBuildsWithLibopenapi(t *testing.T) {
	doc, err := libopenapi.NewDocument(Document())
	if err != nil {
		t.Fatalf("libopenapi.NewDocument: %v", err)
	}
	if v := doc.GetVersion(); v != "3.1.0" {
		t.Fatalf("version %q, want 3.1.0", v)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("BuildV3Model: %v", err)
	}
	if errs := model.Index.GetReferenceIndexErrors(); len(errs) > 0 {
		t.Fatalf("reference errors: %v", errs)
	}
	if refs := model.Index.GetCircularReferences(); len(refs) > 0 {
		t.Fatalf("circular references: %d", len(refs))
	}
	ids := map[string]bool{}
	for path, item := range model.Model.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			if op.OperationId == "" {
				t.Errorf("%s %s has no operationId", method, path)
			}
			ids[op.OperationId] = true
		}
	}
	for _, op := range Operations() {
		if !ids[op.ID] {
			t.Errorf("libopenapi does not see %s", op.ID)
		}
	}
	if len(ids) != len(Operations()) {
		t.Errorf("libopenapi sees %d operations, Operations() has %d", len(ids), len(Operations()))
	}
}

func TestDocumentBasics(t *testing.T) {
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Components struct {
			SecuritySchemes map[string]map[string]string `json:"securitySchemes"`
		} `json:"components"`
	}
	if err := json.Unmarshal(Document(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0" {
		t.Errorf("openapi %q version %q, want 3.1.0 and 1.0", doc.OpenAPI, doc.Info.Version)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/external/v1" {
		t.Errorf("servers %+v, want one /external/v1", doc.Servers)
	}
	want := map[string]map[string]string{
		"secretKeyBearer": {"type": "http", "scheme": "bearer"},
		"secretKeyHeader": {"type": "apiKey", "in": "header", "name": "x-api-key"},
		"publishableKey":  {"type": "apiKey", "in": "header", "name": "x-publishable-key"},
	}
	for name, fields := range want {
		for k, v := range fields {
			if got := doc.Components.SecuritySchemes[name][k]; got != v {
				t.Errorf("securitySchemes.%s.%s = %q, want %q", name, k, got, v)
			}
		}
	}
	if !bytes.Equal(Document(), Document()) {
		t.Error("Document() is not stable")
	}
	d := Document()
	d[0] = 'x'
	if Document()[0] != '{' {
		t.Error("Document() shares its bytes with the caller")
	}
}

func TestEveryReferenceResolves(t *testing.T) {
	var walk func(node any, ptr string)
	count := 0
	walk = func(node any, ptr string) {
		switch n := node.(type) {
		case map[string]any:
			if ref, ok := n["$ref"].(string); ok {
				count++
				target, local := strings.CutPrefix(ref, "#")
				if !local {
					t.Errorf("%s: non-local $ref %q", ptr, ref)
				} else if _, err := lookupPointer(spec.tree, target); err != nil {
					t.Errorf("%s: %v", ptr, err)
				}
			}
			for k, child := range n {
				walk(child, ptr+"/"+escapePointer(k))
			}
		case []any:
			for _, child := range n {
				walk(child, ptr+"/[]")
			}
		}
	}
	walk(spec.tree, "")
	if count < 100 {
		t.Errorf("only %d references seen; the walk is broken", count)
	}
}
