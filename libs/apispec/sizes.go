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
// a collection past its bound. Each value past its bound is reported and cut out of the body
// (replaced by null) before the schema library checks the rest, whose size the schemas then
// limit; whatever the library says of a cut value or inside it is dropped.

// sizes walks a body along its schema for values beyond their schema's bounds.
type sizes struct {
	at    []step
	found []problem
	cuts  []slot
}

// slot is where a value lives: a member of obj, an item of arr, or the body itself (neither).
type slot struct {
	obj map[string]any
	arr []any
	key string
	i   int
}

// clear replaces the value in the slot with null; it reports false for the body itself.
func (sl slot) clear() bool {
	switch {
	case sl.obj != nil:
		sl.obj[sl.key] = nil
	case sl.arr != nil:
		sl.arr[sl.i] = nil
	default:
		return false
	}
	return true
}

// cutOversized returns the problems of values of v beyond the bounds of schema and cuts those
// values out of v (see above); whole is true when the body itself is beyond its bound, so
// nothing of it is left to check. Schemas reached through anyOf, oneOf, not and if are not
// followed: the request schemas use none of them for collections or strings (the package tests
// check that every string, array and open object of a request is bounded).
func cutOversized(schema *jsonschema.Schema, v any) (found []problem, whole bool) {
	var s sizes
	s.walk(schema, v, slot{})
	for _, sl := range s.cuts {
		if !sl.clear() {
			whole = true
		}
	}
	return s.found, whole
}

func (s *sizes) walk(sch *jsonschema.Schema, v any, in slot) {
	if sch == nil {
		return
	}
	s.walk(sch.Ref, v, in)
	for _, part := range sch.AllOf {
		s.walk(part, v, in)
	}
	switch n := v.(type) {
	case map[string]any:
		s.object(sch, n, in)
	case []any:
		s.array(sch, n, in)
	case string:
		if sch.MaxLength != nil && len(n) > *sch.MaxLength && utf8.RuneCountInString(n) > *sch.MaxLength {
			s.report(&kind.MaxLength{Got: utf8.RuneCountInString(n), Want: *sch.MaxLength}, in)
		}
	}
}

func (s *sizes) object(sch *jsonschema.Schema, obj map[string]any, in slot) {
	if sch.MaxProperties != nil && len(obj) > *sch.MaxProperties {
		s.report(&kind.MaxProperties{Got: len(obj), Want: *sch.MaxProperties}, in)
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
			s.walk(sub, child, slot{obj: obj, key: name})
			s.at = s.at[:len(s.at)-1]
		}
	}
}

func (s *sizes) array(sch *jsonschema.Schema, arr []any, in slot) {
	if sch.MaxItems != nil && len(arr) > *sch.MaxItems {
		s.report(&kind.MaxItems{Got: len(arr), Want: *sch.MaxItems}, in)
		return
	}
	for i, child := range arr {
		sub := sch.Items2020
		if i < len(sch.PrefixItems) {
			sub = sch.PrefixItems[i]
		}
		if sub != nil {
			s.at = append(s.at, item(i))
			s.walk(sub, child, slot{arr: arr, i: i})
			s.at = s.at[:len(s.at)-1]
		}
	}
}

// report adds the problem of the value at the current path, worded as the schema library's
// would be, and marks the value, which lives in the slot in, to be cut out.
func (s *sizes) report(k jsonschema.ErrorKind, in slot) {
	s.found = append(s.found, problem{at: slices.Clone(s.at), code: ruleCode(k), text: ruleText(k)})
	s.cuts = append(s.cuts, in)
}

// outsideCuts drops the problems found at or inside a value cut out of the body.
func outsideCuts(found, cut []problem) []problem {
	if len(cut) == 0 {
		return found
	}
	cuts := make(map[string]bool, len(cut))
	for _, p := range cut {
		cuts[pathKey(p.at)] = true
	}
	kept := found[:0]
	for _, p := range found {
		if !insideCut(pathKey(p.at), cuts) {
			kept = append(kept, p)
		}
	}
	return kept
}

// insideCut reports whether the path whose key is key, or a path it extends, was cut: the key
// of a path begins with the keys of the paths it extends, each ending at a ';'.
func insideCut(key string, cuts map[string]bool) bool {
	for i := 0; i < len(key); i++ {
		if key[i] == ';' && cuts[key[:i+1]] {
			return true
		}
	}
	return cuts[key]
}
