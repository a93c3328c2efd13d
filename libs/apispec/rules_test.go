package apispec

import (
	"encoding/json"
	"strings"
	"testing"
)

// synthetic compiles schema, as the schema at /s of a document of its own, into checks.
func synthetic(t *testing.T, schema string) (*valueCheck, error) {
	t.Helper()
	tree := syntheticTree(t, schema)
	return newRequestChecks(tree).compile("/s")
}

// syntheticTree decodes a document whose only member s is schema.
func syntheticTree(t *testing.T, schema string) map[string]any {
	t.Helper()
	tree, err := decodeJSON([]byte(`{"s":` + schema + `}`))
	if err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	return tree.(map[string]any)
}

// TestCompilingRefusesWhatTheChecksDoNotSupport: a keyword, or a use of one, that the compiled
// checks do not implement is an error of NewValidator, never a rule silently skipped.
func TestCompilingRefusesWhatTheChecksDoNotSupport(t *testing.T) {
	for _, schema := range []string{
		`{"anyOf":[{"type":"string"}]}`, `{"oneOf":[{"type":"string"}]}`, `{"if":{"type":"string"},"then":{}}`,
		`{"patternProperties":{"a":{}}}`, `{"propertyNames":{"maxLength":3}}`, `{"uniqueItems":true}`,
		`{"multipleOf":2}`, `{"prefixItems":[{}]}`, `{"contains":{}}`, `{"dependentRequired":{"a":["b"]}}`, `{"unevaluatedProperties":false}`,
		`{"$defs":{"a":{}}}`, `{"format":"hostname"}`, `{"enum":[1,2]}`, `{"const":{"a":1}}`, `{"not":{"type":"string"}}`,
		`{"$ref":"https://example.com/s.json"}`, `{"items":[{}]}`, `{"type":"decimal"}`, `{"pattern":"("}`,
		`{"minLength":-1}`, `{"maxItems":1.5}`, `{"allOf":[]}`, `{"$ref":"#/s"}`, `{"allOf":[{"$ref":"#/s"}]}`,
		`{"type":"string","properties":{"a":{}}}`, `{"enum":["a"],"items":{}}`,
		`{"allOf":[{"maxProperties":2}],"properties":{"a":{"maxLength":3}}}`,
		`{"allOf":[{"maxItems":2}],"items":{"maxLength":3}}`, requireMany(maxRequired + 1),
	} {
		if _, err := synthetic(t, schema); err == nil {
			t.Errorf("schema %.80s compiled", schema)
		}
	}
}

// requireMany is a schema requiring n members.
func requireMany(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = `"m` + strings.Repeat("x", i) + `"`
	}
	return `{"required":[` + strings.Join(names, ",") + `]}`
}

// TestSyntheticSchemasMatchTheLibrary compares the compiled checks with the library path on
// schemas that use what the document does not yet use, or not in these combinations, on
// bodies of every type.
func TestSyntheticSchemasMatchTheLibrary(t *testing.T) {
	schemas := []string{
		`{"type":"array","items":{"type":"string","maxLength":2},"minItems":2,"maxItems":4}`,
		`{"type":"object","minProperties":2,"maxProperties":3,"additionalProperties":{"type":"integer","exclusiveMaximum":0.5}}`,
		`{"allOf":[{"properties":{"a":{"type":"string"}},"additionalProperties":false},{"additionalProperties":{"type":"number"}}]}`,
		`{"properties":{"a":{"const":null},"b":{"const":false},"c":{"enum":[null,true,"x"]},"d":false,"e":{"not":{},"x-message":"never"}}}`,
		`{"type":["integer","null"],"minimum":-1.25,"maximum":1e3,"exclusiveMinimum":-2}`,
		`{"not":{}}`, `false`, `true`, `{}`,
		`{"allOf":[{"type":"string","minLength":2},{"type":"integer","maximum":3}],"format":"date-time","x-message":"when"}`,
		`{"properties":{"d":{"format":"date"},"u":{"type":"string","format":"uri"},"p":{"pattern":"^a+$","x-message":"a's"}}}`,
		`{"type":"object","required":["a","b"],"properties":{"a":{"type":"object","required":["c"],"maxProperties":1}}}`,
		`{"enum":["a","b"],"maxLength":1,"const":"a"}`, `{"type":"object","x-message":"m","const":true}`,
		`{"$ref":"#/t","minLength":3}`,
	}
	bodies := [][]byte{[]byte(`null`), []byte(`[]`), []byte(`{}`), []byte(`""`), []byte(`"abc"`), []byte(`0.5`)}
	for _, v := range oddValues {
		bodies = append(bodies, encode(t, v))
		bodies = append(bodies, encode(t, []any{v, v, v, v}))
		bodies = append(bodies, encode(t, []any{1, "b", v}))
		for _, name := range []string{"a", "b", "c", "d", "e", "u", "p", ""} {
			bodies = append(bodies, encode(t, map[string]any{name: v}), encode(t, map[string]any{name: v, "z": v, "a": map[string]any{"c": v}}))
		}
	}
	for _, schema := range schemas {
		tree := syntheticTree(t, schema)
		tree["t"] = map[string]any{"type": "string", "maxLength": json.Number("4"), "pattern": "^[a-z]*$"}
		check, err := newRequestChecks(tree).compile("/s")
		if err != nil {
			t.Fatalf("schema %s: %v", schema, err)
		}
		c := newSchemaCompiler()
		if err := c.AddResource(documentURL, tree); err != nil {
			t.Fatal(err)
		}
		library, err := c.Compile(documentURL + "#/s")
		if err != nil {
			t.Fatalf("schema %s: %v", schema, err)
		}
		v := &Validator{messages: collectMessages(tree)}
		for _, body := range bodies {
			if got, want := validateBody(check, body), v.validate(library, body); !sameAnswer(got, want) {
				t.Errorf("schema %s, body %s:\n compiled %v\n library  %v", schema, body, got, want)
			}
		}
	}
}
