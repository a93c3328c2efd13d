package apispec

import "strings"

// Go's encoding/json, which the services decode with, matches member names to
// fields without regard to case, and the last match wins; the schemas match
// them exactly. A body naming one field twice in different cases ("limit" and
// "LIMIT") would be validated on one value and read with the other, so such a
// body is refused before either reads it.

// hasCaseTwins reports whether an object anywhere in v has two member names
// that differ only by case. It allocates nothing for objects of up to 16 members.
func hasCaseTwins(v any) bool {
	return anyValue(v, func(node any) bool {
		obj, ok := node.(map[string]any)
		return ok && twinOf(obj) != ""
	})
}

// twinOf returns the first, in byte order, of the member names of obj that
// another member repeats in a different case, or "". Objects of the API are
// small, so names are compared pairwise.
func twinOf(obj map[string]any) string {
	if len(obj) < 2 {
		return ""
	}
	var buf [16]string
	names := buf[:0]
	for k := range obj {
		names = append(names, k)
	}
	first := ""
	for i, a := range names {
		for _, b := range names[i+1:] {
			if strings.EqualFold(a, b) {
				lower := min(a, b)
				if first == "" || lower < first {
					first = lower
				}
			}
		}
	}
	return first
}

// caseTwinProblems names every object of v whose member names repeat.
func caseTwinProblems(v any) []string {
	var found []problem
	eachValue(v, "", func(node any, path string) {
		if obj, ok := node.(map[string]any); ok {
			if name := twinOf(obj); name != "" {
				found = append(found, problem{path: path, text: displayPath(appendKey(path, name)) +
					" is given more than once: member names are compared without regard to case"})
			}
		}
	})
	return finish(found, nil)
}
