package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/podiumhq/podium/libs/apispec"
)

// Render returns the OpenAPI 3.0.3 rendition of the document, indented, with each schema that
// extends an allOf by properties of its own rewritten so that oapi-codegen keeps them: it
// reads `allOf: [A], properties: {p}` as A alone, and `allOf: [A, {properties: {p}}]` (the same
// schema) as A with p. Properties that only narrow ones of A (`statusCode: {enum: [400]}`)
// stay where they are: oapi-codegen cannot merge them, and a client needs no narrower type.
// A schema of any value is made one oapi-codegen reads so (anyValue), and properties no value
// may have are left out (dropForbidden).
func Render() ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(apispec.Document30()))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode the 3.0 document: %w", err)
	}
	var schemas map[string]any
	if root, ok := doc.(map[string]any); ok {
		if c, ok := root["components"].(map[string]any); ok {
			schemas, _ = c["schemas"].(map[string]any)
		}
	}
	foldAllOf(doc, schemas)
	anyValue(doc)
	dropForbidden(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// foldAllOf moves the properties beside an allOf, with the required names among them, into a
// member of the allOf, everywhere in the document, when one of them is new to the allOf's
// members (schemas: the components' schemas, which a member's $ref names).
func foldAllOf(node any, schemas map[string]any) {
	switch n := node.(type) {
	case map[string]any:
		for _, v := range n {
			foldAllOf(v, schemas)
		}
		all, ok := n["allOf"].([]any)
		props, hasProps := n["properties"].(map[string]any)
		if !ok || !hasProps || !addsProperty(props, all, schemas) {
			return
		}
		own := map[string]any{"type": "object", "properties": props}
		delete(n, "properties")
		if req, ok := n["required"]; ok {
			own["required"] = req
			delete(n, "required")
		}
		n["allOf"] = append(all, own)
	case []any:
		for _, v := range n {
			foldAllOf(v, schemas)
		}
	}
}

// anyValue makes a schema without a type that bounds arrays' items and objects' members
// (CustomFieldAnswer: any JSON value) a schema of any value, everywhere in the document:
// oapi-codegen reads one as an object only, refusing a string answer. The API checks the rest.
func anyValue(node any) {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			if props, ok := v.(map[string]any); ok && k == "properties" {
				for _, p := range props { // a map of names, not a schema
					anyValue(p)
				}
				continue
			}
			anyValue(v)
		}
		for _, k := range []string{"type", "$ref", "allOf", "anyOf", "oneOf", "enum", "not"} {
			if _, typed := n[k]; typed {
				return
			}
		}
		_, items := n["items"]
		_, members := n["additionalProperties"]
		if items || members {
			delete(n, "items")
			delete(n, "additionalProperties")
		}
	case []any:
		for _, v := range n {
			anyValue(v)
		}
	}
}

// dropForbidden removes the properties whose schema no value matches (`not: {}`, rendered in
// 3.0 as `not: {nullable: true}`: WaiverMap
// refuses the empty key), everywhere in the document: oapi-codegen would make each a field that
// it always sends.
func dropForbidden(node any) {
	switch n := node.(type) {
	case map[string]any:
		for _, v := range n {
			dropForbidden(v)
		}
		props, ok := n["properties"].(map[string]any)
		if !ok {
			return
		}
		for name, p := range props {
			if s, ok := p.(map[string]any); ok {
				if not, ok := s["not"].(map[string]any); ok && (len(not) == 0 || len(not) == 1 && not["nullable"] == true) {
					delete(props, name)
				}
			}
		}
	case []any:
		for _, v := range n {
			dropForbidden(v)
		}
	}
}

// addsProperty reports whether props names a property that no member of all defines.
func addsProperty(props map[string]any, all []any, schemas map[string]any) bool {
	known := map[string]bool{}
	for _, m := range all {
		s, _ := m.(map[string]any)
		if ref, ok := s["$ref"].(string); ok {
			s, _ = schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		}
		own, _ := s["properties"].(map[string]any)
		for name := range own {
			known[name] = true
		}
	}
	for name := range props {
		if !known[name] {
			return true
		}
	}
	return false
}

// Codegen runs the oapi-codegen of the client's go.mod (`go tool`, outside the workspace so
// that only the client's own requirements pick its dependencies) in the module directory dir,
// writing the code generated from doc to out.
func Codegen(ctx context.Context, dir, doc, out string) error {
	cmd := exec.CommandContext(ctx, "go", "tool", "oapi-codegen", "-config", "oapi-codegen.yaml", "-o", out, doc) //nolint:gosec // the paths of this program and its test
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("oapi-codegen: %w: %s", err, b)
	}
	return nil
}
