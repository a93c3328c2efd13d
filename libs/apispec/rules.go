package apispec

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// A rule is one schema object of a request body schema, compiled: each keyword ready to check a
// value, and the schemas its $ref and allOf apply to the same value (its parts). Rules are built
// once by NewValidator and only read afterwards.
type rule struct {
	// never is set for the schema false, which refuses every value.
	never bool
	// types are the JSON types the rule admits; zero admits any.
	types                     jsonTypes
	typeProblem, bodyProblem  *wording // the body's own type problem is worded apart
	constant                  *scalar
	enum                      []scalar
	constProblem, enumProblem *wording
	format                    func([]byte) bool
	formatProblem             *wording
	// notAny is set for "not: {}", which refuses every value the rule reaches.
	notAny     bool
	notProblem *wording
	parts      []*rule

	minLength, maxLength int // -1 when absent
	minLengthProblem     *wording
	maxLengthProblem     *wording
	pattern              func([]byte) bool // the pattern's regular expression, or its matcher
	patternProblem       *wording
	numberBounds         []numberBound

	properties             map[string]*rule
	additional             *rule // the additionalProperties schema, nil when absent or false
	noAdditional           bool  // additionalProperties: false
	required               []string
	minMembers, maxMembers int // minProperties, maxProperties; -1 when absent
	minMembersProblem      *wording
	maxMembersProblem      *wording

	items                *rule
	minItems, maxItems   int // -1 when absent
	minItemsProblem      *wording
	maxItemsProblem      *wording
	describesObjectParts bool // properties or an additionalProperties schema
	describesArrayParts  bool // items
}

// A scalar is the value of a const or enum: a string, a boolean or null.
type scalar struct {
	kind jsonTypes // typeString, typeBoolean or typeNull
	text string
	flag bool
}

// ruleCompiler compiles the schemas of the document into rules, each schema object once.
type ruleCompiler struct {
	tree  map[string]any
	rules map[string]*rule // by the JSON pointer of their schema
}

// annotations are the keywords that do not constrain a value: compiling them is ignoring them.
var annotations = map[string]bool{
	"description": true, "default": true, "examples": true, "example": true, "title": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
}

// compile returns the rule of the schema node found at ptr. A keyword the compiler does not
// know is an error, so that the document cannot use one the checks would silently ignore.
func (c *ruleCompiler) compile(node any, ptr string) (*rule, error) {
	if r, ok := c.rules[ptr]; ok {
		return r, nil
	}
	r := &rule{minLength: -1, maxLength: -1, minMembers: -1, maxMembers: -1, minItems: -1, maxItems: -1}
	c.rules[ptr] = r
	switch n := node.(type) {
	case bool:
		r.never = !n
		return r, nil
	case map[string]any:
		message, _ := n[messageKeyword].(string)
		for _, key := range slices.Sorted(maps.Keys(n)) {
			if annotations[key] || strings.HasPrefix(key, "x-") {
				continue
			}
			if err := c.keyword(r, key, n[key], ptr, message); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", ptr, escapePointer(key), err)
			}
		}
		r.describesObjectParts = len(r.properties) > 0 || r.additional != nil
		r.describesArrayParts = r.items != nil
		return r, nil
	default:
		return nil, fmt.Errorf("%s: a schema must be an object or a boolean, not %T", ptr, node)
	}
}

// keyword compiles one keyword of the schema at ptr into r; message is the schema's x-message.
func (c *ruleCompiler) keyword(r *rule, key string, value any, ptr, message string) error {
	switch key {
	case "$ref":
		return c.reference(r, value)
	case "allOf":
		list, ok := value.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("want a non-empty array, got %v", value)
		}
		for i, node := range list {
			part, err := c.compile(node, fmt.Sprintf("%s/allOf/%d", ptr, i))
			if err != nil {
				return err
			}
			r.parts = append(r.parts, part)
		}
		return nil
	case "not":
		if obj, ok := value.(map[string]any); !ok || !onlyAnnotations(obj) {
			return fmt.Errorf("only not: {} (no value) is supported, got %v", value)
		}
		r.notAny, r.notProblem = true, messageWording(message, &kind.Not{})
		return nil
	case "type", "const", "enum", "format":
		return c.valueKeyword(r, key, value, message)
	case "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		return c.scalarKeyword(r, key, value, message)
	case "properties", "additionalProperties", "required", "minProperties", "maxProperties":
		return c.objectKeyword(r, key, value, ptr)
	case "items", "minItems", "maxItems":
		return c.arrayKeyword(r, key, value, ptr)
	default:
		return fmt.Errorf("keyword %q is not supported by the compiled request checks", key)
	}
}

// reference compiles a local $ref into a part of r.
func (c *ruleCompiler) reference(r *rule, value any) error {
	ref, _ := value.(string)
	target, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return fmt.Errorf("only local references are supported, got %q", ref)
	}
	node, err := lookupPointer(c.tree, target)
	if err != nil {
		return err
	}
	part, err := c.compile(node, target)
	if err != nil {
		return err
	}
	r.parts = append(r.parts, part)
	return nil
}

// onlyAnnotations reports whether a schema object has no keyword that constrains a value.
func onlyAnnotations(obj map[string]any) bool {
	for key := range obj {
		if !annotations[key] && !strings.HasPrefix(key, "x-") {
			return false
		}
	}
	return true
}

// count reads a non-negative integer keyword.
func count(value any) (int, error) {
	n, ok := value.(json.Number)
	if !ok {
		return 0, fmt.Errorf("want a number, got %v", value)
	}
	i, err := n.Int64()
	if err != nil || i < 0 || i > 1<<31 {
		return 0, fmt.Errorf("want a non-negative integer, got %s", n)
	}
	return int(i), nil
}

// scalarOf reads the value of a const or enum.
func scalarOf(value any) (scalar, error) {
	switch v := value.(type) {
	case string:
		return scalar{kind: typeString, text: v}, nil
	case bool:
		return scalar{kind: typeBoolean, flag: v}, nil
	case nil:
		return scalar{kind: typeNull}, nil
	default:
		return scalar{}, fmt.Errorf("const and enum values must be strings, booleans or null, got %v", value)
	}
}
