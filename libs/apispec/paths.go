package apispec

import (
	"cmp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// rootName names the body itself in problems.
const rootName = "body"

// shownPath is the longest path a problem shows whole; a longer one (only unknown members nest
// that deep) shows its first and last shownPath/2 bytes around "…", so that no problem, and no
// answer, grows with the depth or the member names of the body.
const shownPath = 200

// A step moves from a value into one of its members (key) or items (index).
type step struct {
	key   string
	index int // the item's index; -1 for a member
}

// member is the step into the member named key.
func member(key string) step { return step{key: key, index: -1} }

// item is the step into the item at index i.
func item(i int) step { return step{index: i} }

// stepText is how s shows in a path: ".key" for identifiers, `["key"]` for other member names,
// "[i]" for items. First in a path, an identifier shows bare and the others after "body".
func stepText(s step, first bool) string {
	var b strings.Builder
	appendStep(&b, s, first)
	return b.String()
}

func appendStep(b *strings.Builder, s step, first bool) {
	switch {
	case s.index < 0 && isIdentifier(s.key):
		if !first {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	default:
		if first {
			b.WriteString(rootName)
		}
		b.WriteByte('[')
		if s.index < 0 {
			b.WriteString(strconv.Quote(s.key))
		} else {
			b.WriteString(strconv.Itoa(s.index))
		}
		b.WriteByte(']')
	}
}

// showPath names a path in a problem, such as "athletes[0].phone"; the body itself is "body".
// It renders at most about shownPath bytes plus one step from each end, whatever the path's
// length.
func showPath(at []step) string {
	if len(at) == 0 {
		return rootName
	}
	var head strings.Builder
	i := 0
	for ; i < len(at) && head.Len() <= shownPath; i++ {
		appendStep(&head, at[i], i == 0)
	}
	if i == len(at) && head.Len() <= shownPath {
		return head.String()
	}
	// Render the tail backwards until it is long enough, skipping the middle steps.
	var tail []string
	size := 0
	for j := len(at) - 1; j >= 0 && size <= shownPath/2; j-- {
		s := stepText(at[j], j == 0)
		tail = append(tail, s)
		size += len(s)
	}
	var end strings.Builder
	for k := len(tail) - 1; k >= 0; k-- {
		end.WriteString(tail[k])
	}
	return cutEnd(head.String(), shownPath/2) + "…" + cutStart(end.String(), shownPath/2)
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

// comparePaths orders paths as their texts sort (see naturalCompare), a step at a time: the
// steps two paths share cost nothing to compare, whatever their member names.
func comparePaths(a, b []step) int {
	for i := range min(len(a), len(b)) {
		if c := compareSteps(a[i], b[i], i == 0); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// compareSteps orders two steps at the same place of two paths.
func compareSteps(a, b step, first bool) int {
	switch {
	case a.index >= 0 && b.index >= 0:
		return cmp.Compare(a.index, b.index)
	case a.index < 0 && b.index < 0 && a.key == b.key:
		return 0
	case a.index < 0 && b.index < 0 && isIdentifier(a.key) && isIdentifier(b.key):
		return naturalCompare(a.key, b.key)
	default:
		return naturalCompare(stepText(a, first), stepText(b, first))
	}
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

// pathKey is a string that stands for the path alone, for sets of paths.
func pathKey(at []step) string {
	var b strings.Builder
	for _, s := range at {
		if s.index >= 0 {
			b.WriteByte('i')
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteByte('k')
			b.WriteString(strconv.Itoa(len(s.key)))
			b.WriteByte(':')
			b.WriteString(s.key)
		}
		b.WriteByte(';')
	}
	return b.String()
}
