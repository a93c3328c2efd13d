package apispec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Document30 returns the document rendered as OpenAPI 3.0.3 JSON, for client generators that
// load only 3.0 (the gateway serves it at /external/v1/openapi-3.0.json). It is derived from
// the 3.1 document on first use and accepts the same bodies. Each call returns a fresh copy.
func Document30() []byte {
	return bytes.Clone(document30())
}

var document30 = sync.OnceValue(func() []byte {
	b, err := render30(spec.json)
	if err != nil {
		panic(fmt.Sprintf("apispec: render OpenAPI 3.0: %v", err))
	}
	return b
})

// render30 rewrites an OpenAPI 3.1 JSON document as OpenAPI 3.0.3.
func render30(src []byte) ([]byte, error) {
	tree, err := decodeJSON(src)
	if err != nil {
		return nil, err
	}
	doc, ok := tree.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("document root is %T, want an object", tree)
	}
	doc["openapi"] = "3.0.3"
	for _, k := range []string{"jsonSchemaDialect", "$schema", "$id"} {
		delete(doc, k)
	}
	if info, ok := doc["info"].(map[string]any); ok {
		delete(info, "summary")
		if license, ok := info["license"].(map[string]any); ok {
			delete(license, "identifier")
		}
	}
	if hooks, ok := doc["webhooks"]; ok {
		delete(doc, "webhooks")
		doc["x-webhooks"] = hooks
	}
	r := &renderer{}
	if components, ok := doc["components"].(map[string]any); ok {
		r.schemas, _ = deepCopy(components["schemas"]).(map[string]any)
	}
	r.walk30(doc)
	return json.Marshal(doc)
}

// walk30 finds the schemas of a document (every "schema" member and the members of
// components.schemas) and rewrites them in place. Examples are values and left alone.
func (r *renderer) walk30(node any) {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			switch k {
			case "example", "examples":
			case "schema":
				n[k] = r.schema30(v)
			case "schemas":
				if m, ok := v.(map[string]any); ok {
					for name, s := range m {
						m[name] = r.schema30(s)
					}
				}
			default:
				r.walk30(v)
			}
		}
	case []any:
		for _, v := range n {
			r.walk30(v)
		}
	}
}

// schema30 returns a JSON Schema 2020-12 schema as an OpenAPI 3.0 schema object.
func (r *renderer) schema30(node any) any {
	switch n := node.(type) {
	case bool:
		if n {
			return r.schema30(map[string]any{})
		}
		return map[string]any{"not": r.schema30(map[string]any{})}
	case map[string]any:
		return r.object30(n)
	}
	return node
}

// typeKeywords are the keywords that apply to values of one type, moved into that type's branch
// when a type array becomes anyOf.
var typeKeywords = map[string][]string{
	"string":  {"minLength", "maxLength", "pattern", "format"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"array":   {"items", "minItems", "maxItems", "uniqueItems"},
	"object":  {"properties", "required", "additionalProperties", "minProperties", "maxProperties"},
}

// object30 rewrites a schema object: its subschemas first, then its own keywords.
func (r *renderer) object30(s map[string]any) map[string]any {
	for _, k := range []string{"items", "not", "additionalProperties"} {
		if sub, ok := s[k]; ok {
			if _, isBool := sub.(bool); !isBool || k != "additionalProperties" {
				s[k] = r.schema30(sub)
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s[k].([]any); ok {
			for i, sub := range list {
				list[i] = r.schema30(sub)
			}
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for name, sub := range props {
			props[name] = r.schema30(sub)
		}
	}
	delete(s, "$schema")
	delete(s, "$id")
	if v, ok := s["const"]; ok {
		delete(s, "const")
		s["enum"] = []any{v}
	}
	if list, ok := s["examples"].([]any); ok {
		delete(s, "examples")
		if len(list) > 0 {
			s["example"] = list[0]
		}
	}
	for keyword, bound := range map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"} {
		if n, ok := s[keyword].(json.Number); ok {
			s[bound] = n
			s[keyword] = true
		}
	}
	if types, ok := s["type"].([]any); ok {
		delete(s, "type")
		var kinds []any
		for _, t := range types {
			if t == "null" {
				s["nullable"] = true
			} else {
				kinds = append(kinds, t)
			}
		}
		switch len(kinds) {
		case 0:
			s["enum"] = []any{nil}
		case 1:
			s["type"] = kinds[0]
		default:
			anyOf := make([]any, len(kinds))
			for i, t := range kinds {
				branch := map[string]any{"type": t}
				name, _ := t.(string)
				for _, k := range typeKeywords[name] {
					if v, ok := s[k]; ok {
						branch[k] = v
					}
				}
				anyOf[i] = branch
			}
			for _, t := range kinds {
				name, _ := t.(string)
				for _, k := range typeKeywords[name] {
					delete(s, k)
				}
			}
			if own, ok := s["anyOf"]; ok {
				allOf, _ := s["allOf"].([]any)
				s["allOf"] = append(allOf, map[string]any{"anyOf": own})
			}
			s["anyOf"] = anyOf
		}
	}
	if ref, ok := s["$ref"].(string); ok && len(s) > 1 {
		return r.refWith(ref, s)
	}
	return permitNull(s)
}

// renderer rewrites the schemas of one document; schemas are its components' schemas as
// written (3.1), which a $ref with sibling keywords is resolved against.
type renderer struct{ schemas map[string]any }

// Sibling keywords of a $ref: annotations, and bounds that tighten the referenced schema.
var (
	refAnnotations = map[string]bool{"description": true, "title": true, "example": true, "deprecated": true}
	lowerBounds    = map[string]bool{"minLength": true, "minItems": true, "minProperties": true, "minimum": true}
	upperBounds    = map[string]bool{"maxLength": true, "maxItems": true, "maxProperties": true, "maximum": true}
)

// refWith renders a $ref with sibling keywords, which 3.0 ignores and generators cannot merge
// from an allOf: annotations go (the referenced schema has its own), and bounds tighten a copy
// of the referenced schema, the larger lower bound and the smaller upper one being what both
// together accept. Other siblings keep both schemas in an allOf.
func (r *renderer) refWith(ref string, s map[string]any) map[string]any {
	target, ok := r.resolve(ref)
	tighten := false
	for k := range s {
		switch {
		case k == "$ref" || refAnnotations[k]:
		case ok && (lowerBounds[k] || upperBounds[k]):
			tighten = true
		default:
			delete(s, "$ref")
			return map[string]any{"allOf": []any{map[string]any{"$ref": ref}, permitNull(s)}}
		}
	}
	if !tighten {
		return map[string]any{"$ref": ref}
	}
	for k, v := range s {
		switch {
		case lowerBounds[k]:
			target[k] = bound(target[k], v, 1)
		case upperBounds[k]:
			target[k] = bound(target[k], v, -1)
		}
	}
	return target
}

// resolve returns a rendered copy of the component schema ref names, if it is one whose bounds
// sit at its top (not a reference or a combination itself).
func (r *renderer) resolve(ref string) (map[string]any, bool) {
	name, ok := strings.CutPrefix(ref, "#/components/schemas/")
	if !ok {
		return nil, false
	}
	s, ok := r.schema30(deepCopy(r.schemas[name])).(map[string]any)
	if !ok {
		return nil, false
	}
	for _, k := range []string{"$ref", "allOf", "anyOf", "oneOf"} {
		if _, combined := s[k]; combined {
			return nil, false
		}
	}
	return s, true
}

// bound returns the larger (sign 1) or smaller (sign -1) of two numeric bounds; a missing one
// yields the other.
func bound(have, add any, sign int) any {
	h, okH := number(have)
	a, okA := number(add)
	if !okH || (okA && (a-h)*float64(sign) > 0) {
		return add
	}
	return have
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch n := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(n))
		for k, e := range n {
			c[k] = deepCopy(e)
		}
		return c
	case []any:
		c := make([]any, len(n))
		for i, e := range n {
			c[i] = deepCopy(e)
		}
		return c
	}
	return v
}

// permitNull marks nullable a schema that nothing restricts by type: it accepts null in 3.1,
// and in 3.0 only a nullable schema does.
func permitNull(s map[string]any) map[string]any {
	for _, k := range []string{"type", "enum", "not", "allOf", "anyOf", "oneOf", "$ref", "nullable"} {
		if _, ok := s[k]; ok {
			return s
		}
	}
	s["nullable"] = true
	return s
}
