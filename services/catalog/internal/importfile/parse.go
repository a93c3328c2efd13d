// Package importfile reads an event import file: YAML or JSON, checked for shape against an
// embedded JSON Schema (schema.json), then decoded into a domain.Event and checked against the
// domain's rules. Every problem names its field path in the file, for example
// "categories[1].tiers[0].until must be after from".
package importfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// Format is the syntax of an import file.
type Format int

// Import file syntaxes.
const (
	YAML Format = iota + 1
	JSON
)

// ErrUnsupportedMediaType means an import body is neither YAML nor JSON.
var ErrUnsupportedMediaType = errors.New("the event file must be sent as application/yaml, application/x-yaml, text/yaml or application/json")

// FormatOf returns the format a Content-Type names: application/yaml, application/x-yaml or
// text/yaml for YAML, application/json for JSON; anything else is ErrUnsupportedMediaType.
func FormatOf(contentType string) (Format, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return 0, ErrUnsupportedMediaType
	}
	switch mt {
	case "application/yaml", "application/x-yaml", "text/yaml":
		return YAML, nil
	case "application/json":
		return JSON, nil
	}
	return 0, ErrUnsupportedMediaType
}

// Parse reads an import file and returns the event it describes, not yet merged with the
// stored one (no ids), or an invalid-input failure (fault.Invalid) listing every problem.
// Shape problems are reported first; the domain's cross-field rules run once the shape is
// right.
func Parse(f Format, body []byte) (domain.Event, error) {
	doc, err := ToJSON(f, body)
	if err != nil {
		return domain.Event{}, invalid(err.Error())
	}
	if err := checkNumbers(doc); err != nil {
		return domain.Event{}, invalid(err.Error())
	}
	if problems := checkShape(doc); len(problems) > 0 {
		return domain.Event{}, invalid(problems...)
	}
	var file File
	if err := json.Unmarshal(doc, &file); err != nil {
		return domain.Event{}, invalid("file does not have the documented shape: " + err.Error())
	}
	e, problems := file.event()
	if err := e.Validate(); err != nil {
		broken, ok := fault.Of(err)
		if !ok {
			return domain.Event{}, err
		}
		problems = append(problems, broken.Problems...)
	}
	if len(problems) > 0 {
		return domain.Event{}, invalid(problems...)
	}
	return e, nil
}

func invalid(problems ...string) error {
	return fault.NewInvalid(dedupe(problems)...)
}

// ToJSON returns the file as JSON, as Parse reads it. YAML is read as YAML 1.2 (yes, no and
// on stay strings; dates stay strings); anchors, aliases, duplicate keys and several documents
// are refused.
func ToJSON(f Format, body []byte) ([]byte, error) {
	if f == JSON {
		if !json.Valid(body) {
			return nil, errors.New("file is not valid JSON")
		}
		return body, nil
	}
	file, err := parser.ParseBytes(body, 0)
	if err != nil {
		return nil, yamlError(err)
	}
	if len(file.Docs) != 1 || file.Docs[0].Body == nil {
		return nil, errors.New("file must hold exactly one YAML document")
	}
	if tok := firstReference(file.Docs[0].Body); tok != "" {
		return nil, fmt.Errorf("file: YAML anchors, aliases, merge keys and tags are not supported (%s)", tok)
	}
	var v any
	if err := yaml.NodeToValue(file.Docs[0].Body, &v); err != nil {
		return nil, yamlError(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.New("file holds a value JSON cannot represent (a number out of range, .nan or .inf)")
	}
	return b, nil
}

// yamlError words a YAML syntax error on one line, with its position.
func yamlError(err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		msg := ye.GetMessage()
		if tok := ye.GetToken(); tok != nil && tok.Position != nil {
			return fmt.Errorf("file is not valid YAML: line %d, column %d: %s", tok.Position.Line, tok.Position.Column, msg)
		}
		return fmt.Errorf("file is not valid YAML: %s", msg)
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return fmt.Errorf("file is not valid YAML: %s", first)
}

// firstReference returns where the first anchor, alias, merge key or tag under n is, or "".
// Aliases could expand a small file into a huge document; tags could decode into types the
// import does not know.
func firstReference(n ast.Node) string {
	found := ""
	ast.Walk(visitor(func(n ast.Node) bool {
		if n == nil || found != "" {
			return false
		}
		switch n.Type() {
		case ast.AnchorType, ast.AliasType, ast.MergeKeyType, ast.TagType:
			if tok := n.GetToken(); tok != nil && tok.Position != nil {
				found = fmt.Sprintf("line %d", tok.Position.Line)
			} else {
				found = "found"
			}
			return false
		}
		return true
	}), n)
	return found
}

type visitor func(ast.Node) bool

// Visit implements ast.Visitor: it keeps walking while the function returns true.
func (v visitor) Visit(n ast.Node) ast.Visitor {
	if !v(n) {
		return nil
	}
	return v
}

// maxNumberLength bounds number literals: the schema library compares numbers as exact
// rationals, and a literal such as 1e-99999999 would take it minutes. No value of an event
// file needs more than a few digits.
const maxNumberLength = 30

// checkNumbers refuses number literals longer than maxNumberLength or with an exponent.
func checkNumbers(doc []byte) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil //nolint:nilerr // io.EOF, or a syntax error the schema check reports
		}
		if n, ok := tok.(json.Number); ok && (len(n) > maxNumberLength || strings.ContainsAny(string(n), "eE")) {
			return fmt.Errorf("file holds the number %.30s, outside what the import accepts: write numbers in plain decimal notation", n)
		}
	}
}
