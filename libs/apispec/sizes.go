package apispec

import (
	"slices"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The schema library checks every item of an array even when there are more than maxItems,
// and every string against its pattern even when it is longer than maxLength: a body would
// cost in proportion to whatever it carries past the bounds, and a refused body could cost
// far more than a valid one. So the bounds of the schemas (maxItems, maxProperties,
// maxLength) are checked first, in one walk of the body along its schema that does not enter
// a collection past its bound; the schema library runs only on a body within every bound,
// whose size the schemas then limit.

// sizes walks a body along its schema for values beyond their schema's bounds.
type sizes struct {
	at    []step
	found []problem
}

// sizeProblems returns the problems of values of v beyond the bounds of schema, or nil.
// Schemas reached through anyOf, oneOf, not and if are not followed: the request schemas use
// none of them for collections or strings (the package tests check that every string, array
// and open object of a request is bounded).
func sizeProblems(schema *jsonschema.Schema, v any) []string {
	var s sizes
	s.walk(schema, v)
	return finish(s.found)
}

func (s *sizes) walk(sch *jsonschema.Schema, v any) {
	if sch == nil {
		return
	}
	s.walk(sch.Ref, v)
	for _, part := range sch.AllOf {
		s.walk(part, v)
	}
	switch n := v.(type) {
	case map[string]any:
		s.object(sch, n)
	case []any:
		s.array(sch, n)
	case string:
		if sch.MaxLength != nil && len(n) > *sch.MaxLength && utf8.RuneCountInString(n) > *sch.MaxLength {
			s.report(&kind.MaxLength{Got: utf8.RuneCountInString(n), Want: *sch.MaxLength})
		}
	}
}

func (s *sizes) object(sch *jsonschema.Schema, obj map[string]any) {
	if sch.MaxProperties != nil && len(obj) > *sch.MaxProperties {
		s.report(&kind.MaxProperties{Got: len(obj), Want: *sch.MaxProperties})
		return
	}
	additional, _ := sch.AdditionalProperties.(*jsonschema.Schema)
	if len(sch.Properties) == 0 && additional == nil {
		return
	}
	for name, child := range obj {
		sub, ok := sch.Properties[name]
		if !ok {
			sub = additional
		}
		if sub != nil {
			s.at = append(s.at, member(name))
			s.walk(sub, child)
			s.at = s.at[:len(s.at)-1]
		}
	}
}

func (s *sizes) array(sch *jsonschema.Schema, arr []any) {
	if sch.MaxItems != nil && len(arr) > *sch.MaxItems {
		s.report(&kind.MaxItems{Got: len(arr), Want: *sch.MaxItems})
		return
	}
	for i, child := range arr {
		sub := sch.Items2020
		if i < len(sch.PrefixItems) {
			sub = sch.PrefixItems[i]
		}
		if sub != nil {
			s.at = append(s.at, item(i))
			s.walk(sub, child)
			s.at = s.at[:len(s.at)-1]
		}
	}
}

// report adds the problem of the value at the current path, worded as the schema library's
// would be.
func (s *sizes) report(k jsonschema.ErrorKind) {
	s.found = append(s.found, problem{at: slices.Clone(s.at), text: ruleText(k)})
}
