package apispec

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Go's encoding/json, which the services decode with, matches member names to
// fields without regard to case, and the last match wins; the schemas match
// them exactly. A body naming one field twice in different cases ("limit" and
// "LIMIT") would be validated on one value and read with the other, so such a
// body is refused before either reads it.

// pairwiseNames is the member count up to which twinOf compares names pairwise, which for so
// few names is faster than folding them and allocates nothing.
const pairwiseNames = 16

// twinOf returns the first, in byte order, of the member names of obj that
// another member repeats in a different case, or "". It takes time linear in the
// names: larger objects are grouped by folded name.
func twinOf(obj map[string]any) string {
	if len(obj) < 2 {
		return ""
	}
	if len(obj) <= pairwiseNames {
		return twinPairwise(obj)
	}
	// smallest maps each folded name to the smallest name of its group.
	smallest := make(map[string]string, len(obj))
	first := ""
	for name := range obj {
		folded := foldName(name)
		prev, ok := smallest[folded]
		if !ok {
			smallest[folded] = name
			continue
		}
		lower := min(prev, name)
		smallest[folded] = lower
		if first == "" || lower < first {
			first = lower
		}
	}
	return first
}

// twinPairwise is twinOf for small objects.
func twinPairwise(obj map[string]any) string {
	var buf [pairwiseNames]string
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

// foldName folds a member name as encoding/json does to match it to a field (its fold.go):
// ASCII letters upper-cased, any other rune replaced by the smallest rune of its case-folding
// orbit, so that foldName(a) == foldName(b) exactly when strings.EqualFold(a, b). A name that
// folding leaves alone is returned without copying.
func foldName(name string) string {
	i := 0
	for i < len(name) {
		c := name[i]
		if c >= utf8.RuneSelf || ('a' <= c && c <= 'z') {
			break
		}
		i++
	}
	if i == len(name) {
		return name
	}
	out := make([]byte, i, len(name))
	copy(out, name[:i])
	for i < len(name) {
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(name[i:])
		out = utf8.AppendRune(out, foldRune(r))
		i += n
	}
	return string(out)
}

// foldRune returns the smallest rune of r's case-folding orbit.
func foldRune(r rune) rune {
	for {
		next := unicode.SimpleFold(r)
		if next <= r {
			return next
		}
		r = next
	}
}
