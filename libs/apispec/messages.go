package apispec

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// messageKeyword is the schema extension that explains a pattern, format,
// const or not rule in words; problems use it instead of showing the rule.
const messageKeyword = "x-message"

// printer renders the library's own messages for rule kinds this package
// does not phrase itself.
var printer = message.NewPrinter(language.English)

// collectMessages maps the URL of every schema that carries x-message to
// that message.
func collectMessages(tree map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(node any, ptr string)
	walk = func(node any, ptr string) {
		switch n := node.(type) {
		case map[string]any:
			if msg, ok := n[messageKeyword].(string); ok {
				out[documentURL+"#"+ptr] = msg
			}
			for k, child := range n {
				walk(child, ptr+"/"+escapePointer(k))
			}
		case []any:
			for i, child := range n {
				walk(child, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(tree, "")
	return out
}

// phrase words one leaf error of the schema library for the value at at (empty for the body
// itself).
func (v *Validator) phrase(e *jsonschema.ValidationError, at []step) []problem {
	one := func(text string) []problem { return []problem{{at: at, code: ruleCode(e.ErrorKind), text: text}} }
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		out := make([]problem, 0, len(k.Missing))
		for _, name := range k.Missing {
			out = append(out, problem{at: under(at, name), code: codeRequired, text: "is required"})
		}
		return out
	case *kind.AdditionalProperties:
		out := make([]problem, 0, len(k.Properties))
		for _, name := range k.Properties {
			out = append(out, problem{at: under(at, name), code: codeNotAllowed, text: "is not allowed"})
		}
		return out
	case *kind.Type:
		text := "must be " + typeList(k.Want)
		if len(at) == 0 && len(k.Want) == 1 && k.Want[0] == "object" {
			text = "must be a JSON object"
		}
		return []problem{{at: at, code: codeInvalidType, text: text, isType: true}}
	case *kind.Pattern, *kind.Format, *kind.Const, *kind.Not:
		if msg, ok := v.messages[e.SchemaURL]; ok {
			return one(msg)
		}
		return one(defaultRuleText(e.ErrorKind))
	default:
		return one(ruleText(e.ErrorKind))
	}
}

// ruleText words the rule kinds that need no schema context.
func ruleText(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Enum:
		return "must be one of: " + joinValues(k.Want)
	case *kind.MinLength:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("must be at least %d characters long", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %d characters long", k.Want)
	case *kind.Minimum:
		return "must be at least " + ratText(k.Want)
	case *kind.Maximum:
		return "must be at most " + ratText(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be greater than " + ratText(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be less than " + ratText(k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d %s", k.Want, plural(k.Want, "item"))
	case *kind.MaxItems:
		return fmt.Sprintf("must have at most %d %s", k.Want, plural(k.Want, "item"))
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %d %s", k.Want, plural(k.Want, "member"))
	case *kind.MaxProperties:
		return fmt.Sprintf("must have at most %d %s", k.Want, plural(k.Want, "member"))
	case *kind.PropertyNames:
		if k.Property == "" {
			return "must not have an empty key"
		}
		return fmt.Sprintf("has an invalid key %q", k.Property)
	case *kind.FalseSchema:
		return "is not allowed"
	case *kind.AnyOf, *kind.OneOf:
		return "does not match any of the allowed forms"
	default:
		return k.LocalizedString(printer)
	}
}

// defaultRuleText words a pattern, format or const rule that has no
// x-message.
func defaultRuleText(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Const:
		return "must be " + valueText(k.Want)
	case *kind.Format:
		switch k.Want {
		case "email":
			return "must be a valid e-mail address"
		case "uri":
			return "must be an absolute URI"
		case "date":
			return "must be a real calendar date in the form YYYY-MM-DD"
		case "date-time":
			return "must be an RFC 3339 date-time"
		default:
			return "must be a valid " + k.Want
		}
	case *kind.Not:
		return "is not allowed"
	default:
		return "has an invalid format"
	}
}

// typeList words the JSON types a value must have, e.g. "a string or a number".
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

// joinValues words the allowed values of an enum.
func joinValues(values []any) string {
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = valueText(v)
	}
	return strings.Join(words, ", ")
}

// valueText words one JSON value of a schema: strings as they are, other
// values in JSON form.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// ratText words a schema bound without a fractional part when it has none.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(r.FloatString(6), "0"), ".")
}

// plural adds an "s" to noun unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
