package apispec

import (
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
