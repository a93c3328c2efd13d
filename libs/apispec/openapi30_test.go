package apispec

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// load30 loads the 3.0 rendition with kin-openapi, the loader of oapi-codegen v2. Its formats
// are those the document asserts, checked as the 3.1 validator checks them (kin-openapi
// checks dates by a pattern that ignores the calendar and does not check uri).
func load30(t *testing.T) *openapi3.T {
	t.Helper()
	for name, valid := range map[string]func([]byte) bool{"date": isDate, "date-time": isDateTime, "uri": isAbsoluteURI} {
		openapi3.DefineStringFormatValidator(name, openapi3.NewCallbackValidator(func(s string) error {
			if !valid([]byte(s)) {
				return fmt.Errorf("not a valid %s", name)
			}
			return nil
		}))
	}
	doc, err := openapi3.NewLoader().LoadFromData(Document30())
	if err != nil {
		t.Fatalf("load the 3.0 rendition: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate the 3.0 rendition: %v", err)
	}
	return doc
}

// TestDocument30Loads: the 3.0 rendition is a valid OpenAPI 3.0.3 document for kin-openapi.
func TestDocument30Loads(t *testing.T) {
	if doc := load30(t); doc.OpenAPI != "3.0.3" {
		t.Fatalf("openapi = %q", doc.OpenAPI)
	}
}

// TestDocument30ValidatesTheSameBodies: for every request and response example of every
// operation, and for variants of it (each member removed, each value replaced by null, by a
// value of another type, by 0, -1, "" or a changed constant, a member added), the
// schema of the 3.0 rendition (kin-openapi) accepts exactly what the 3.1 schema
// (santhosh-tekuri/jsonschema) accepts.
func TestDocument30ValidatesTheSameBodies(t *testing.T) {
	doc30 := load30(t)
	tree, err := decodeJSON(spec.json)
	if err != nil {
		t.Fatal(err)
	}
	c := newSchemaCompiler()
	if err := c.AddResource(documentURL, tree); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	compared, refused := 0, 0
	compare := func(where, ptr string, schema30 *openapi3.Schema, example []byte) {
		schema31, err := c.Compile(documentURL + "#" + mediaSchema(ptr))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		var value any
		if err := json.Unmarshal(example, &value); err != nil {
			t.Fatal(err)
		}
		for _, body := range append([]any{value}, mutations30(value)...) {
			raw, _ := json.Marshal(body)
			if key := ptr + " " + string(raw); seen[key] {
				continue
			} else {
				seen[key] = true
			}
			inst, err := decodeJSON(raw)
			if err != nil {
				t.Fatal(err)
			}
			err31 := schema31.Validate(inst)
			err30 := schema30.VisitJSON(body)
			compared++
			if err31 != nil {
				refused++
			}
			if (err31 == nil) != (err30 == nil) {
				t.Errorf("%s (%s): 3.1 error %v, 3.0 error %v, for body %.300s", where, mediaSchema(ptr), err31, err30, raw)
			}
		}
	}
	for _, op := range Operations() {
		method := strings.ToLower(op.Method)
		node := spec.tree["paths"].(map[string]any)[op.Path].(map[string]any)[method].(map[string]any)
		ptr := "/paths/" + escapePointer(op.Path) + "/" + method
		op30 := doc30.Paths.Value(op.Path).GetOperation(op.Method)
		if body, ok := node["requestBody"]; ok {
			_, at, err := resolveRef(spec.tree, body, ptr+"/requestBody")
			if err != nil {
				t.Fatal(err)
			}
			schema30 := op30.RequestBody.Value.Content.Get(jsonMedia).Schema.Value
			for name, ex := range examples(t, body, ptr+"/requestBody") {
				compare(op.ID+" request example "+name, at, schema30, ex)
			}
		}
		for code, res := range node["responses"].(map[string]any) {
			_, at, err := resolveRef(spec.tree, res, ptr+"/responses/"+escapePointer(code))
			if err != nil {
				t.Fatal(err)
			}
			schema30 := op30.Responses.Value(code).Value.Content.Get(jsonMedia).Schema.Value
			for name, ex := range examples(t, res, ptr+"/responses/"+code) {
				compare(op.ID+" "+code+" example "+name, at, schema30, ex)
			}
		}
	}
	t.Logf("%d bodies compared, %d of them refused", compared, refused)
	if refused < compared/4 || refused == compared {
		t.Fatalf("%d of %d bodies refused: the variants are broken", refused, compared)
	}
}

// mutations30 returns copies of v, each changed in one place: a member removed or added, or a
// value replaced by null, a value of another type, a boundary number, an empty string or a
// changed constant.
func mutations30(v any) []any {
	out := replacements(v)
	switch n := v.(type) {
	case map[string]any:
		// An unknown member, and the members that schemas refuse by a false schema or not: {}.
		for _, name := range []string{"zzUnknownMember", "", "status"} {
			if _, ok := n[name]; !ok {
				out = append(out, withMember(n, name, "PUBLISHED"))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(n)) {
			rest := maps.Clone(n)
			delete(rest, k)
			out = append(out, rest)
			for _, sub := range mutations30(n[k]) {
				out = append(out, withMember(n, k, sub))
			}
		}
	case []any:
		for i := range n {
			for _, sub := range mutations30(n[i]) {
				c := slices.Clone(n)
				c[i] = sub
				out = append(out, c)
			}
		}
	}
	return out
}

// replacements are the values v may be replaced with.
func replacements(v any) []any {
	out := []any{nil}
	switch n := v.(type) {
	case string:
		out = append(out, 12345.0, "", n+"x")
	case float64:
		out = append(out, "12", 0.0, -1.0, n+0.5, n+1)
	case bool:
		out = append(out, "true", !n)
	case map[string]any:
		out = append(out, []any{}, "object")
	case []any:
		out = append(out, map[string]any{}, "array")
	}
	return out
}

// withMember returns a copy of m with k set to v.
func withMember(m map[string]any, k string, v any) map[string]any {
	c := maps.Clone(m)
	c[k] = v
	return c
}

// TestRender30Rewrites: each 3.1 construct becomes its 3.0 form.
func TestRender30Rewrites(t *testing.T) {
	src := `{"openapi":"3.1.0","jsonSchemaDialect":"x","info":{"title":"t","version":"1","summary":"s",
	"license":{"name":"n","identifier":"MIT"}},"webhooks":{"ping":{}},"paths":{},"components":{"schemas":{
	"nullable":{"type":["integer","null"]},
	"several":{"type":["string","array","null"],"maxLength":3,"items":{"type":"string"}},
	"const":{"const":true},
	"positive":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10},
	"never":false,"always":true,
	"ref":{"$ref":"#/components/schemas/const","description":"d"},
	"name":{"type":["string","null"],"maxLength":100},
	"tight":{"$ref":"#/components/schemas/name","minLength":1,"maxLength":50,"description":"d"},
	"loose":{"$ref":"#/components/schemas/name","maxLength":200},
	"other":{"$ref":"#/components/schemas/const","pattern":"x"},
	"examples":{"type":"string","examples":["a","b"]},
	"any":{"description":"anything"}}}}`
	want := `{"openapi":"3.0.3","info":{"title":"t","version":"1","license":{"name":"n"}},
	"x-webhooks":{"ping":{}},"paths":{},"components":{"schemas":{
	"nullable":{"type":"integer","nullable":true},
	"several":{"anyOf":[{"type":"string","maxLength":3},{"type":"array","items":{"type":"string"}}],"nullable":true},
	"const":{"enum":[true]},
	"positive":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":10,"exclusiveMaximum":true},
	"never":{"not":{"nullable":true}},"always":{"nullable":true},
	"ref":{"$ref":"#/components/schemas/const"},
	"name":{"type":"string","nullable":true,"maxLength":100},
	"tight":{"type":"string","nullable":true,"minLength":1,"maxLength":50},
	"loose":{"type":"string","nullable":true,"maxLength":100},
	"other":{"allOf":[{"$ref":"#/components/schemas/const"},{"pattern":"x","nullable":true}]},
	"examples":{"type":"string","example":"a"},
	"any":{"description":"anything","nullable":true}}}}`
	got, err := render30([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
