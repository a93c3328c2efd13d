package apispec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
)

// Bounds on the shape of any body, checked before the schemas: the API's own bodies nest six
// levels (a guest's custom field answer that is an array), and name their members in a few
// words.
const (
	// maxDepth is the deepest nesting of objects and arrays a body may have; the body itself is
	// level 1.
	maxDepth = 32
	// maxNameLength is the longest member name, in characters, anywhere in a body.
	maxNameLength = 128
)

// nulProblem is the problem of a string holding the character U+0000.
const nulProblem = "must not contain the character U+0000"

// The problems worded alike wherever they are found, by the shape walk and by the compiled checks.
var (
	requiredWording   = &wording{code: codeRequired, text: "is required"}
	notAllowedWording = &wording{code: codeNotAllowed, text: "is not allowed"}
	hugeNumberWording = &wording{code: codeTooLarge, text: "is a number outside the range this API accepts"}
	nulWording        = &wording{code: codeInvalidFormat, text: nulProblem}
	longNamesWording  = &wording{code: codeTooLong, text: fmt.Sprintf("must not have member names longer than %d characters", maxNameLength)}
	nulNamesWording   = &wording{code: codeInvalidFormat, text: "must not have member names containing the character U+0000"}
	twinWording       = &wording{code: codeDuplicate, text: "is given more than once: member names are compared without regard to case"}
)

// tooDeepProblem is the problem of a body nested deeper than maxDepth.
var tooDeepProblem = fmt.Sprintf("body must not nest objects and arrays more than %d levels deep", maxDepth)

// nestsTooDeep reports whether body, read as JSON, opens more than maxDepth objects and arrays
// inside one another. It reads each byte once and allocates nothing, so a deep body is refused
// before the decoder builds it; a body that is not JSON is left to the decoder.
func nestsTooDeep(body []byte) bool {
	depth := 0
	inString := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// shape walks a decoded body for the problems of its shape that no schema states: number
// literals beyond what the schema library can compare cheaply, member names longer than
// maxNameLength, member names that differ only in case, and strings (values or member names)
// holding the character U+0000, which no service can store (PostgreSQL text and jsonb refuse
// it). It keeps the path of the value it is
// at as a stack of steps and copies it only for the problems it keeps, so its time is linear in
// the body whatever the nesting and the member names.
type shape struct {
	at    []step
	first firstProblems
}

// shapeProblems returns the problems of the shape of v, or nil. v nests at most maxDepth levels.
func shapeProblems(v any) []fault.Problem {
	var s shape
	s.walk(v)
	return s.first.words()
}

func (s *shape) walk(v any) {
	switch n := v.(type) {
	case json.Number:
		if isHugeNumber(n) {
			s.report(hugeNumberWording)
		}
	case string:
		if strings.IndexByte(n, 0) >= 0 {
			s.report(nulWording)
		}
	case map[string]any:
		if hasLongName(n) {
			// Its members are not walked: their paths would repeat the long name.
			s.report(longNamesWording)
			return
		}
		if hasNulName(n) {
			// Nor here: their paths would show the character.
			s.report(nulNamesWording)
			return
		}
		if name := twinOf(n); name != "" {
			s.at = append(s.at, member(name))
			s.report(twinWording)
			s.at = s.at[:len(s.at)-1]
		}
		for k, child := range n {
			s.at = append(s.at, member(k))
			s.walk(child)
			s.at = s.at[:len(s.at)-1]
		}
	case []any:
		for i, child := range n {
			s.at = append(s.at, item(i))
			s.walk(child)
			s.at = s.at[:len(s.at)-1]
		}
	}
}

// report counts a problem about the value at the current path and keeps a copy of it if it is
// among the first.
func (s *shape) report(w *wording) {
	p := problem{at: s.at, code: w.code, text: w.text}
	if s.first.admits(p) {
		p.at = slices.Clone(s.at)
	}
	s.first.offer(p)
}

// hasNulName reports whether a member name of obj holds the character U+0000.
func hasNulName(obj map[string]any) bool {
	for k := range obj {
		if strings.IndexByte(k, 0) >= 0 {
			return true
		}
	}
	return false
}

// hasLongName reports whether a member name of obj is longer than maxNameLength characters.
func hasLongName(obj map[string]any) bool {
	for k := range obj {
		if len(k) > maxNameLength && utf8.RuneCountInString(k) > maxNameLength {
			return true
		}
	}
	return false
}
