package apispec

import (
	"cmp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// rootName names the body itself in problems.
const rootName = "body"

// Bounds on what a problem shows of its path, so that no problem, and no answer, grows with the
// depth or the member names of the body: a member name longer than shownName characters shows
// its first shownName and "…", and a path longer than shownPath bytes (only unknown members
// nest that deep) its first and last shownPath/2 bytes around "…".
const (
	shownName = 32
	shownPath = 120
)

// A step moves from a value into one of its members (key) or items (index).
type step struct {
	key   string
	index int // the item's index; -1 for a member
}

// member is the step into the member named key.
func member(key string) step { return step{key: key, index: -1} }

// item is the step into the item at index i.
func item(i int) step { return step{index: i} }

// appendStep appends s as it shows in a path: ".key" for identifiers, `["key"]` for other
// member names, "[i]" for items. First in a path, an identifier shows bare and the others after
// "body".
func appendStep(b []byte, s step, first bool) []byte {
	if s.index < 0 && isIdentifier(s.key) {
		if !first {
			b = append(b, '.')
		}
		name, cut := shortName(s.key)
		b = append(b, name...)
		if cut {
			b = append(b, "…"...)
		}
		return b
	}
	if first {
		b = append(b, rootName...)
	}
	b = append(b, '[')
	if s.index >= 0 {
		b = strconv.AppendInt(b, int64(s.index), 10)
	} else {
		name, cut := shortName(s.key)
		b = appendQuoted(b, name)
		if cut {
			b = append(b[:len(b)-1], `…"`...)
		}
	}
	return append(b, ']')
}

// appendQuoted appends name quoted as strconv.Quote does, without its work for a name of
// printable ASCII that needs no escape.
func appendQuoted(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, name)
		}
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"')
}

// shortName returns the first shownName characters of name and whether it has more.
func shortName(name string) (string, bool) {
	if len(name) <= shownName {
		return name, false
	}
	runes := 0
	for i := range name {
		if runes == shownName {
			return name[:i], true
		}
		runes++
	}
	return name, false
}

// showPath names a path in a problem, such as "athletes[0].phone"; the body itself is "body".
func showPath(at []step) string {
	var w pathWriter
	return w.show(at)
}

// pathWriter shows paths. Given paths in order, it renders again only the steps a path does not
// share with the one before: the problems of one body share most of their steps.
type pathWriter struct {
	prev []step
	head []byte
	ends []int // the length of head after each step of prev it renders
}

// show names a path. It renders at most about shownPath bytes and two steps more, whatever the
// path's length.
func (w *pathWriter) show(at []step) string {
	if len(at) == 0 {
		return rootName
	}
	shared := 0
	for shared < len(w.ends) && shared < len(at) && w.prev[shared] == at[shared] {
		shared++
	}
	w.ends = w.ends[:shared]
	w.head = w.head[:0]
	if shared > 0 {
		w.head = w.head[:w.ends[shared-1]]
	}
	for i := shared; i < len(at) && len(w.head) <= shownPath; i++ {
		w.head = appendStep(w.head, at[i], i == 0)
		w.ends = append(w.ends, len(w.head))
	}
	w.prev = at
	if len(w.ends) == len(at) && len(w.head) <= shownPath {
		return string(w.head)
	}
	// The tail, taken backwards a step at a time until it is long enough.
	var tail, piece []byte
	for j := len(at) - 1; j >= 0 && len(tail) <= shownPath/2; j-- {
		piece = appendStep(piece[:0], at[j], j == 0)
		tail = append(append(make([]byte, 0, len(piece)+len(tail)), piece...), tail...)
	}
	return cutEnd(string(w.head), shownPath/2) + "…" + cutStart(string(tail), shownPath/2)
}

// cutEnd keeps at most n bytes of the start of s, on a rune boundary.
func cutEnd(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cutStart keeps at most n bytes of the end of s, on a rune boundary.
func cutStart(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// comparePaths orders paths a step at a time, as they show (see compareSteps): the steps two
// paths share cost nothing to compare, whatever their member names.
func comparePaths(a, b []step) int {
	for i := range min(len(a), len(b)) {
		if c := compareSteps(a[i], b[i], i == 0); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// compareSteps orders two steps at the same place of two paths as their texts sort (see
// naturalCompare), member names compared as they are rather than quoted, and without rendering
// them when the steps are of the same kind.
func compareSteps(a, b step, first bool) int {
	switch {
	case a.index >= 0 && b.index >= 0:
		return cmp.Compare(a.index, b.index)
	case a.index < 0 && b.index < 0 && a.key == b.key:
		return 0
	}
	la, ra := sortParts(a, first)
	lb, rb := sortParts(b, first)
	if la == lb {
		return cmp.Or(naturalCompare(ra, rb), cmp.Compare(a.key, b.key))
	}
	return naturalCompare(la+ra, lb+rb)
}

// sortParts splits how s sorts into what precedes its name or index and the name or index.
func sortParts(s step, first bool) (lead, rest string) {
	switch {
	case s.index >= 0:
		lead, rest = "[", strconv.Itoa(s.index)
	case isIdentifier(s.key):
		lead, rest = ".", s.key
	default:
		lead, rest = `["`, s.key
	}
	if first {
		lead = strings.Replace(strings.TrimPrefix(lead, "."), "[", rootName+"[", 1)
	}
	return lead, rest
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
func digitRun[T ~string | ~[]byte](s T) int {
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

// pathKey is a string that stands for the path alone, for sets of paths.
func pathKey(at []step) string {
	var b []byte
	for _, s := range at {
		if s.index >= 0 {
			b = append(b, 'i')
			b = strconv.AppendInt(b, int64(s.index), 10)
		} else {
			b = append(b, 'k')
			b = strconv.AppendInt(b, int64(len(s.key)), 10)
			b = append(b, ':')
			b = append(b, s.key...)
		}
		b = append(b, ';')
	}
	return string(b)
}
