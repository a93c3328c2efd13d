package importfile

import (
	"cmp"
	"slices"
)

// sortProblems orders problems by their text with runs of digits compared by value, so that
// they follow the file ("categories[2]" before "categories[10]").
func sortProblems(p []string) { slices.SortStableFunc(p, naturalCompare) }

// dedupe sorts problems and drops repeated ones.
func dedupe(p []string) []string {
	sortProblems(p)
	return slices.Compact(p)
}

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

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
