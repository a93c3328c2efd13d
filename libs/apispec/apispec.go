// Package apispec holds the OpenAPI 3.1 document of the Podium external API
// (/external/v1) and validates request and response bodies against it.
//
// The document is written in openapi.yaml, embedded in the binary and
// converted to JSON once, when the package is initialised. Operations lists
// the operations it declares, and a Validator checks bodies against its
// schemas with problems phrased for API clients.
package apispec

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/goccy/go-yaml"
)

//go:embed openapi.yaml
var documentYAML []byte

// spec is the parsed document, built once at package initialisation.
var spec = mustLoad(documentYAML)

// loaded is the document in the forms the package works with.
type loaded struct {
	json       []byte
	tree       map[string]any
	operations []Operation
}

// mustLoad converts the embedded document to JSON and derives its
// operations. It panics only if the embedded document is broken, which the
// package tests rule out.
func mustLoad(src []byte) *loaded {
	l, err := load(src)
	if err != nil {
		panic(fmt.Sprintf("apispec: embedded openapi.yaml: %v", err))
	}
	return l
}

// load converts a YAML document to compact JSON, decodes it and derives the
// operation list.
func load(src []byte) (*loaded, error) {
	raw, err := yaml.YAMLToJSON(src)
	if err != nil {
		return nil, fmt.Errorf("convert to JSON: %w", err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, fmt.Errorf("compact JSON: %w", err)
	}
	tree, err := decodeJSON(compact.Bytes())
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	doc, ok := tree.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("document root is %T, want an object", tree)
	}
	ops, err := deriveOperations(doc)
	if err != nil {
		return nil, err
	}
	return &loaded{json: compact.Bytes(), tree: doc, operations: ops}, nil
}

// Document returns the OpenAPI document as JSON, as served by the gateway at
// /external/v1/openapi.json. Each call returns a fresh copy that the caller
// may keep or modify.
func Document() []byte {
	return bytes.Clone(spec.json)
}
