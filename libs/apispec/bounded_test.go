package apispec

import (
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestEveryRequestValueIsBounded walks the compiled request schemas: every string, array and
// object a request may carry where a schema reads it has a maximum (maxLength, unless an enum or
// const fixes it; maxItems; maxProperties) on its schema or on one that applies to the same
// value (the schema that references it, or whose allOf part it is: a shared rule such as
// PlainText takes the bound of each use), and no schema reaches a value through a keyword the
// bounds check does not follow (sizes.go), so that the schema library only ever reads bounded
// values.
func TestEveryRequestValueIsBounded(t *testing.T) {
	v := validator(t)
	type visit struct {
		s *jsonschema.Schema
		// str, arr and obj tell that a schema applying to the same value bounds it already.
		str, arr, obj bool
	}
	seen := map[visit]bool{}
	var walk func(at visit)
	walk = func(at visit) {
		s := at.s
		if s == nil || seen[at] || s.Bool != nil {
			return
		}
		seen[at] = true
		str := at.str || bounded(s, func(s *jsonschema.Schema) bool { return s.MaxLength != nil || s.Enum != nil || s.Const != nil })
		arr := at.arr || bounded(s, func(s *jsonschema.Schema) bool { return s.MaxItems != nil })
		obj := at.obj || bounded(s, func(s *jsonschema.Schema) bool { return s.MaxProperties != nil })
		if accepts(s, "string") && !str {
			t.Errorf("%s: a string without maxLength", s.Location)
		}
		if accepts(s, "array") && !arr {
			t.Errorf("%s: an array without maxItems", s.Location)
		}
		if accepts(s, "object") && !obj {
			t.Errorf("%s: an object without maxProperties", s.Location)
		}
		if len(s.AnyOf)+len(s.OneOf)+len(s.PatternProperties)+len(s.DependentSchemas) > 0 || s.If != nil ||
			s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil || s.Contains != nil || s.Items != nil ||
			len(s.PrefixItems) > 0 || s.PropertyNames != nil || (s.Not != nil && !isEmpty(s.Not)) {
			t.Errorf("%s: a keyword the bounds check does not follow", s.Location)
		}
		walk(visit{s.Ref, str, arr, obj})
		for _, part := range s.AllOf {
			walk(visit{part, str, arr, obj})
		}
		for _, p := range s.Properties {
			walk(visit{s: p})
		}
		if additional, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			walk(visit{s: additional})
		}
		walk(visit{s: s.Items2020})
	}
	for id, rs := range v.requests {
		if rs.schema != nil {
			t.Run(id, func(*testing.T) { walk(visit{s: rs.schema}) })
		}
	}
	if len(seen) < 50 {
		t.Errorf("only %d schemas walked", len(seen))
	}
}

// accepts reports whether a value of JSON type typ can pass s as far as its types go.
func accepts(s *jsonschema.Schema, typ string) bool {
	if s == nil {
		return true
	}
	if s.Bool != nil {
		return *s.Bool
	}
	if s.Not != nil && isEmpty(s.Not) {
		return false // not: {} takes no value
	}
	if s.Types != nil && !slices.Contains(s.Types.ToStrings(), typ) {
		return false
	}
	if s.Enum != nil || s.Const != nil {
		return false // fixed values: booleans or strings of their own length
	}
	if !accepts(s.Ref, typ) {
		return false
	}
	for _, part := range s.AllOf {
		if !accepts(part, typ) {
			return false
		}
	}
	return true
}

// bounded reports whether s, its reference or one of its allOf parts has the bound.
func bounded(s *jsonschema.Schema, has func(*jsonschema.Schema) bool) bool {
	if s == nil {
		return false
	}
	return has(s) || bounded(s.Ref, has) || slices.ContainsFunc(s.AllOf, func(p *jsonschema.Schema) bool { return bounded(p, has) })
}

// isEmpty reports whether s is the schema {}, which every value matches.
func isEmpty(s *jsonschema.Schema) bool {
	return s.Types == nil && s.Ref == nil && len(s.AllOf) == 0 && len(s.Properties) == 0 && s.Enum == nil && s.Const == nil
}
