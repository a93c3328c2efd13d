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
	switch n := v.(type) {
	case map[string]any:
		if twinOf(n) != "" {
			return true
		}
		for _, child := range n {
			if hasCaseTwins(child) {
				return true
			}
		}
	case []any:
		for _, child := range n {
			if hasCaseTwins(child) {
				return true
			}
		}
	}
	return false
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
	var walk func(node any, path string)
	walk = func(node any, path string) {
		switch n := node.(type) {
		case map[string]any:
			if name := twinOf(n); name != "" {
				found = append(found, problem{path: path, text: displayPath(appendKey(path, name)) +
					" is given more than once: member names are compared without regard to case"})
			}
			for k, child := range n {
				walk(child, appendKey(path, k))
			}
		case []any:
			for i, child := range n {
				walk(child, appendIndex(path, i))
			}
		}
	}
	walk(v, "")
	return finish(found, nil)
}
