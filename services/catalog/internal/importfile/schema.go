package importfile

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is the JSON Schema (2020-12) of an import file, served to editors and operators.
//
//go:embed schema.json
var Schema []byte

const schemaURL = "https://podium.invalid/catalog/event-import.schema.json"

// printer words the schema library's own messages for rules this package does not phrase.
var printer = message.NewPrinter(language.English)

// compiled is the schema compiled once, with the x-message of every schema that has one.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, map[string]string) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		panic(fmt.Sprintf("importfile: embedded schema.json: %v", err))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		panic(fmt.Sprintf("importfile: embedded schema.json: %v", err))
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		panic(fmt.Sprintf("importfile: embedded schema.json: %v", err))
	}
	messages := map[string]string{}
	collectMessages(doc, "", messages)
	return s, messages
})

func collectMessages(node any, ptr string, out map[string]string) {
	switch n := node.(type) {
	case map[string]any:
		if msg, ok := n["x-message"].(string); ok {
			out[schemaURL+"#"+ptr] = msg
		}
		for k, child := range n {
			collectMessages(child, ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k), out)
		}
	case []any:
		for i, child := range n {
			collectMessages(child, ptr+"/"+strconv.Itoa(i), out)
		}
	}
}

// checkShape validates a JSON document against the schema and words each problem with its
// field path.
func checkShape(doc []byte) []string {
	schema, messages := compiled()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return []string{"file is not valid JSON"}
	}
	err = schema.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{"file could not be checked: " + err.Error()}
	}
	var found []problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		path := locate(inst, e.InstanceLocation)
		_, isType := e.ErrorKind.(*kind.Type)
		for _, text := range phrase(e, path, messages) {
			found = append(found, problem{path: path, text: text, isType: isType})
		}
	}
	walk(ve)
	// A type mismatch hides the other problems of the same field, which would only repeat it.
	typed := map[string]bool{}
	for _, p := range found {
		typed[p.path] = typed[p.path] || p.isType
	}
	out := make([]string, 0, len(found))
	for _, p := range found {
		if p.isType || !typed[p.path] {
			out = append(out, p.text)
		}
	}
	return dedupe(out)
}

// problem is one worded problem about the value at path.
type problem struct {
	path, text string
	isType     bool
}

// phrase words one leaf error of the schema library.
func phrase(e *jsonschema.ValidationError, path string, messages map[string]string) []string {
	name := path
	if name == "" {
		name = "file"
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		out := make([]string, 0, len(k.Missing))
		for _, m := range k.Missing {
			out = append(out, join(path, m)+" is required")
		}
		return out
	case *kind.AdditionalProperties:
		out := make([]string, 0, len(k.Properties))
		for _, m := range k.Properties {
			out = append(out, join(path, m)+" is not a field of the import file")
		}
		return out
	case *kind.Type:
		if path == "" {
			return []string{"file must be a YAML mapping or a JSON object"}
		}
		return []string{name + " must be " + typeList(k.Want)}
	case *kind.Pattern, *kind.Format:
		if msg, ok := messages[e.SchemaURL]; ok {
			return []string{name + " " + msg}
		}
		return []string{name + " has an invalid format"}
	case *kind.Enum:
		vals := make([]string, len(k.Want))
		for i, v := range k.Want {
			vals[i] = fmt.Sprint(v)
		}
		return []string{name + " must be one of " + strings.Join(vals, ", ")}
	case *kind.MinLength:
		if k.Want == 1 {
			return []string{name + " must not be empty"}
		}
		return []string{fmt.Sprintf("%s must be at least %d characters long", name, k.Want)}
	case *kind.MaxLength:
		return []string{fmt.Sprintf("%s must be at most %d characters long", name, k.Want)}
	case *kind.Minimum:
		return []string{name + " must be at least " + ratText(k.Want)}
	case *kind.Maximum:
		return []string{name + " must be at most " + ratText(k.Want)}
	case *kind.ExclusiveMinimum:
		return []string{name + " must be greater than " + ratText(k.Want)}
	case *kind.MultipleOf:
		return []string{name + " must be a multiple of " + ratText(k.Want)}
	case *kind.MaxItems:
		return []string{fmt.Sprintf("%s must have at most %d items", name, k.Want)}
	}
	return []string{name + " " + e.ErrorKind.LocalizedString(printer)}
}

func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(r.FloatString(6), "0"), ".")
}

func typeList(want []string) string {
	words := make([]string, len(want))
	for i, t := range want {
		switch t {
		case "integer", "object", "array":
			words[i] = "an " + t
		case "null":
			words[i] = "null"
		default:
			words[i] = "a " + t
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// locate turns an instance location into a path such as "categories[0].tiers[1].until".
func locate(inst any, loc []string) string {
	path := ""
	cur := inst
	for _, tok := range loc {
		if arr, ok := cur.([]any); ok {
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(arr) {
				path += "[" + tok + "]"
				cur = arr[i]
				continue
			}
		}
		path = join(path, tok)
		if m, ok := cur.(map[string]any); ok {
			cur = m[tok]
		} else {
			cur = nil
		}
	}
	return path
}

// join appends an object key to a path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
