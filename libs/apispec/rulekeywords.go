package apispec

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/podiumhq/podium/libs/safetext"
)

// A wording is what a broken rule says of a value: the code of the problem and the words that
// follow the value's path. Every wording is made when the rules are compiled.
type wording struct {
	code, text string
	isType     bool
}

// kindWording words a broken rule as the library's error of that kind is worded (messages.go).
func kindWording(k jsonschema.ErrorKind) *wording {
	return &wording{code: ruleCode(k), text: ruleText(k)}
}

// messageWording words a pattern, format, const or not rule by its schema's x-message, or by
// the default words of its kind.
func messageWording(message string, k jsonschema.ErrorKind) *wording {
	if message == "" {
		message = defaultRuleText(k)
	}
	return &wording{code: ruleCode(k), text: message}
}

// formats are the checks of the formats the document asserts. "email" is an annotation: the
// Email schema's pattern is the rule (see NewValidator).
var formats = map[string]func([]byte) bool{
	"date":      isDate,
	"date-time": isDateTime,
	"uri":       isAbsoluteURI,
	"email":     nil,
}

// matchers match, in a few nanoseconds a character, exactly the strings their pattern's
// regular expression matches (FuzzMatchersMatchTheirPatterns, on the valid UTF-8 the checks
// read): the names of a body carry PlainText's pattern, whose expression would cost several times
// the rest of the body's check.
var matchers = map[string]func([]byte) bool{
	safetext.Pattern: safetext.ValidBytes,
}

// valueKeyword compiles the keywords that apply to a value of any type.
func (c *ruleCompiler) valueKeyword(r *rule, key string, value any, message string) error {
	switch key {
	case "type":
		types, err := typesOf(value)
		if err != nil {
			return err
		}
		r.types = types
		want := types.names()
		r.typeProblem = &wording{code: codeInvalidType, text: "must be " + typeList(want), isType: true}
		r.bodyProblem = r.typeProblem
		if types == typeObject {
			r.bodyProblem = &wording{code: codeInvalidType, text: "must be a JSON object", isType: true}
		}
	case "const":
		s, err := scalarOf(value)
		if err != nil {
			return err
		}
		r.constant, r.constProblem = &s, messageWording(message, &kind.Const{Want: value})
	case "enum":
		list, ok := value.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("want a non-empty array, got %v", value)
		}
		for _, item := range list {
			s, err := scalarOf(item)
			if err != nil {
				return err
			}
			r.enum = append(r.enum, s)
		}
		r.enumProblem = kindWording(&kind.Enum{Want: list})
	case "format":
		name, _ := value.(string)
		check, ok := formats[name]
		if !ok {
			return fmt.Errorf("format %q is not supported by the compiled request checks", name)
		}
		r.format, r.formatProblem = check, messageWording(message, &kind.Format{Want: name})
	}
	return nil
}

// scalarKeyword compiles the keywords on strings and numbers.
func (c *ruleCompiler) scalarKeyword(r *rule, key string, value any, message string) error {
	switch key {
	case "minLength", "maxLength":
		n, err := count(value)
		if err != nil {
			return err
		}
		if key == "minLength" {
			r.minLength, r.minLengthProblem = n, kindWording(&kind.MinLength{Want: n})
		} else {
			r.maxLength, r.maxLengthProblem = n, kindWording(&kind.MaxLength{Want: n})
		}
	case "pattern":
		source, _ := value.(string)
		re, err := regexp.Compile(source)
		if err != nil {
			return err
		}
		r.pattern = re.Match
		if m, ok := matchers[source]; ok {
			r.pattern = m
		}
		r.patternProblem = messageWording(message, &kind.Pattern{Want: source})
	default:
		n, ok := value.(json.Number)
		limit, exact := new(big.Rat).SetString(string(n))
		if !ok || !exact {
			return fmt.Errorf("want a number, got %v", value)
		}
		b := numberBound{limit: readDecimal([]byte(n))}
		switch key {
		case "minimum":
			b.refuses, b.problem = refusesBelow, kindWording(&kind.Minimum{Want: limit})
		case "maximum":
			b.refuses, b.problem = refusesAbove, kindWording(&kind.Maximum{Want: limit})
		case "exclusiveMinimum":
			b.refuses, b.problem = refusesAtOrBelow, kindWording(&kind.ExclusiveMinimum{Want: limit})
		case "exclusiveMaximum":
			b.refuses, b.problem = refusesAtOrAbove, kindWording(&kind.ExclusiveMaximum{Want: limit})
		}
		r.numberBounds = append(r.numberBounds, b)
	}
	return nil
}

// objectKeyword compiles the keywords on objects.
func (c *ruleCompiler) objectKeyword(r *rule, key string, value any, ptr string) error {
	switch key {
	case "properties":
		props, ok := value.(map[string]any)
		if !ok {
			return fmt.Errorf("want an object, got %v", value)
		}
		r.properties = make(map[string]*rule, len(props))
		for name, node := range props {
			p, err := c.compile(node, ptr+"/properties/"+escapePointer(name))
			if err != nil {
				return err
			}
			r.properties[name] = p
		}
	case "additionalProperties":
		if allowed, ok := value.(bool); ok {
			r.noAdditional = !allowed
			return nil
		}
		p, err := c.compile(value, ptr+"/additionalProperties")
		r.additional = p
		return err
	case "required":
		names, ok := value.([]any)
		if !ok {
			return fmt.Errorf("want an array, got %v", value)
		}
		for _, n := range names {
			name, ok := n.(string)
			if !ok {
				return fmt.Errorf("want member names, got %v", n)
			}
			r.required = append(r.required, name)
		}
	default:
		n, err := count(value)
		if err != nil {
			return err
		}
		if key == "minProperties" {
			r.minMembers, r.minMembersProblem = n, kindWording(&kind.MinProperties{Want: n})
		} else {
			r.maxMembers, r.maxMembersProblem = n, kindWording(&kind.MaxProperties{Want: n})
		}
	}
	return nil
}

// arrayKeyword compiles the keywords on arrays.
func (c *ruleCompiler) arrayKeyword(r *rule, key string, value any, ptr string) error {
	switch key {
	case "items":
		p, err := c.compile(value, ptr+"/items")
		r.items = p
		return err
	default:
		n, err := count(value)
		if err != nil {
			return err
		}
		if key == "minItems" {
			r.minItems, r.minItemsProblem = n, kindWording(&kind.MinItems{Want: n})
		} else {
			r.maxItems, r.maxItemsProblem = n, kindWording(&kind.MaxItems{Want: n})
		}
	}
	return nil
}
