// Package contracttest checks the contracts services keep with one another, as JSON Schema
// 2020-12: the schemas of the events a producer publishes (libs/broker/brokertest) and the
// OpenAPI 3.1 documents of the internal HTTP APIs a service serves
// (services/<svc>/contracts/internal.openapi.yaml, docs/adr/0012-internal-contracts.md). The
// owner's tests check what it really sends against its contract; the callers' tests check the
// Go types they read and send, and their test doubles, against the owner's contract.
package contracttest

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Draft is the JSON Schema dialect of every contract.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// ReadJSON decodes a JSON document with its numbers kept exact, as the validator wants them.
func ReadJSON(b []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// NewCompiler returns a compiler of JSON Schema 2020-12 that asserts formats (a date-time
// must be one).
func NewCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	return c
}

// Undocumented returns the paths of the members of v that schema does not describe, at any
// depth ("categories[0].price"), sorted: what a reader of the contract cannot know is there,
// so no one may rely on it.
func Undocumented(schema *jsonschema.Schema, v any) []string {
	var out []string
	undocumented(schema, v, "", &out)
	slices.Sort(out)
	return slices.Compact(out)
}

func undocumented(s *jsonschema.Schema, v any, path string, out *[]string) {
	parts := flatten(s)
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			described := false
			for _, p := range parts {
				if ps, ok := p.Properties[k]; ok {
					described = true
					undocumented(ps, v[k], join(path, k), out)
				} else if ap, ok := p.AdditionalProperties.(*jsonschema.Schema); ok {
					described = true
					undocumented(ap, v[k], join(path, k), out)
				}
			}
			if !described {
				*out = append(*out, join(path, k))
			}
		}
	case []any:
		for i, x := range v {
			for _, p := range parts {
				if p.Items2020 != nil {
					undocumented(p.Items2020, x, path+"["+strconv.Itoa(i)+"]", out)
				}
			}
		}
	}
}

// flatten returns s with every schema that applies beside it: its $ref and allOf, anyOf and
// oneOf parts, recursively.
func flatten(s *jsonschema.Schema) []*jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := []*jsonschema.Schema{s}
	for _, sub := range append(append(append([]*jsonschema.Schema{s.Ref}, s.AllOf...), s.AnyOf...), s.OneOf...) {
		out = append(out, flatten(sub)...)
	}
	return out
}

// join appends a member name to a path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// validate checks the JSON document b against s and for members s does not describe.
func validate(s *jsonschema.Schema, b []byte) error {
	v, err := ReadJSON(b)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(v); err != nil {
		return err
	}
	if extra := Undocumented(s, v); len(extra) > 0 {
		return fmt.Errorf("members the contract does not describe: %v", extra)
	}
	return nil
}
