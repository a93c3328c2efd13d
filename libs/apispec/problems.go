package apispec

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// rootName names the body itself in problems.
const rootName = "body"

// maxProblems caps the problems reported for one body; the rest are counted.
const maxProblems = 100

// problem is one worded problem and the field path it is about ("" for the
// body itself).
type problem struct {
	path   string
	text   string
	isType bool
}

// problems turns the error tree of the schema library into sorted, unique,
// readable problems. A type mismatch hides the other problems of the same
// field, which would only repeat it.
func (v *Validator) problems(inst any, root *jsonschema.ValidationError) []string {
	var found []problem
	typed := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf, *kind.PropertyNames:
			// Worded as a whole: the causes of anyOf and oneOf describe the
			// alternatives, those of propertyNames the key. The library
			// reports propertyNames at the body, so the document avoids it.
		default:
			if len(e.Causes) > 0 {
				for _, c := range e.Causes {
					walk(c)
				}
				return
			}
		}
		ps, isType := v.phrase(e, locate(inst, e.InstanceLocation))
		for _, p := range ps {
			p.isType = isType
			if isType {
				typed[p.path] = true
			}
			found = append(found, p)
		}
	}
	walk(root)
	return finish(found, typed)
}

// finish drops problems hidden by a type mismatch, sorts by path (array
// indexes in numeric order) and then by text, removes duplicates and caps
// the list.
func finish(found []problem, typed map[string]bool) []string {
	found = slices.DeleteFunc(found, func(p problem) bool { return typed[p.path] && !p.isType })
	slices.SortFunc(found, func(a, b problem) int {
		return cmp.Or(naturalCompare(a.path, b.path), cmp.Compare(a.text, b.text))
	})
	out := make([]string, 0, len(found))
	for _, p := range found {
		if len(out) == 0 || out[len(out)-1] != p.text {
			out = append(out, p.text)
		}
	}
	if len(out) > maxProblems {
		rest := len(out) - maxProblems
		out = append(out[:maxProblems], fmt.Sprintf("and %d more %s", rest, plural(rest, "problem")))
	}
	return out
}

// locate turns an instance location into a readable path such as
// "athletes[0].phone", telling array indexes from object keys by walking the
// instance. The body itself is "".
func locate(inst any, loc []string) string {
	path := ""
	cur := inst
	for _, tok := range loc {
		switch node := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(node) {
				return appendKey(path, tok)
			}
			path = appendIndex(path, i)
			cur = node[i]
		case map[string]any:
			path = appendKey(path, tok)
			cur = node[tok]
		default:
			path = appendKey(path, tok)
			cur = nil
		}
	}
	return path
}

// displayPath names path in a problem; the body itself is "body".
func displayPath(path string) string {
	if path == "" {
		return rootName
	}
	return path
}

// appendKey adds an object key to path: ".key" for identifiers, `["key"]`
// otherwise.
func appendKey(path, key string) string {
	if isIdentifier(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return displayPath(path) + "[" + strconv.Quote(key) + "]"
}

// appendIndex adds an array index to path.
func appendIndex(path string, i int) string {
	return displayPath(path) + "[" + strconv.Itoa(i) + "]"
}

// isIdentifier reports whether key can be shown after a dot.
func isIdentifier(key string) bool {
	if key == "" {
		return false
	}
	for i, r := range key {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// naturalCompare orders strings with runs of digits compared by value, so
// that "athletes[2]" sorts before "athletes[10]".
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := trimZeros(a[:da]), trimZeros(b[:db])
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), cmp.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun returns the length of the run of ASCII digits that starts s.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// trimZeros drops leading zeros from a run of digits, keeping one digit.
func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
