package apispec

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/podiumhq/podium/libs/fault"
)

// The codes of the problems a request schema finds, each listed in the document's Problem
// schema.
const (
	codeRequired      = "required"
	codeNotAllowed    = "not_allowed"
	codeInvalidType   = "invalid_type"
	codeInvalidFormat = "invalid_format"
	codeTooShort      = "too_short"
	codeTooLong       = "too_long"
	codeTooSmall      = "too_small"
	codeTooLarge      = "too_large"
	codeDuplicate     = "duplicate"
	codeInvalidJSON   = "invalid_json"
	codeTooDeep       = "too_deep"
	codeInvalid       = fault.CodeInvalid
	codeMoreProblems  = "more_problems"
)

// ruleCode is the code of a broken rule of the schema library.
func ruleCode(k jsonschema.ErrorKind) string {
	switch k.(type) {
	case *kind.Required:
		return codeRequired
	case *kind.Type:
		return codeInvalidType
	case *kind.Pattern, *kind.Format, *kind.PropertyNames, *kind.ContentEncoding, *kind.ContentMediaType:
		return codeInvalidFormat
	case *kind.Enum, *kind.Const, *kind.Not, *kind.FalseSchema, *kind.AdditionalProperties:
		return codeNotAllowed
	case *kind.MinLength, *kind.MinItems, *kind.MinProperties, *kind.MinContains:
		return codeTooShort
	case *kind.MaxLength, *kind.MaxItems, *kind.MaxProperties, *kind.MaxContains:
		return codeTooLong
	case *kind.Minimum, *kind.ExclusiveMinimum:
		return codeTooSmall
	case *kind.Maximum, *kind.ExclusiveMaximum:
		return codeTooLarge
	case *kind.UniqueItems:
		return codeDuplicate
	default:
		return codeInvalid
	}
}

// codeStatuses reads the statuses the document gives each error code (the x-statuses of the
// Error schema's code), and checks every listed code has some.
func codeStatuses(tree map[string]any) (map[string][]string, error) {
	raw, err := lookupPointer(tree, "/components/schemas/Error/properties/code")
	if err != nil {
		return nil, err
	}
	code, _ := raw.(map[string]any)
	table, _ := code["x-statuses"].(map[string]any)
	out := map[string][]string{}
	for name, list := range table {
		items, _ := list.([]any)
		for _, s := range items {
			out[name] = append(out[name], fmt.Sprint(s))
		}
	}
	enum, _ := code["enum"].([]any)
	for _, c := range enum {
		if len(out[fmt.Sprint(c)]) == 0 {
			return nil, fmt.Errorf("code %v has no x-statuses", c)
		}
	}
	return out, nil
}
