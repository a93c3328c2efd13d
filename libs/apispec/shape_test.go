package apispec

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// nested returns a body whose member x holds levels arrays inside one another: the body is
// level 1, so the deepest array is level levels+1.
func nested(levels int) string {
	return `{"x":` + str(levels, "[") + str(levels, "]") + `}`
}

func TestNestingDepth(t *testing.T) {
	v := validator(t)
	tests := []struct {
		name, body string
		want       []string
	}{
		{"32 levels", nested(31), nil},
		{"33 levels", nested(32), []string{tooDeepProblem}},
		{"10,001 levels, past the decoder's own limit", nested(10000), []string{tooDeepProblem}},
		{"objects count too", `{"x":` + str(32, `{"a":`) + "1" + str(32, "}") + `}`, []string{tooDeepProblem}},
		{"brackets in strings do not count", `{"search":"` + str(40, "[{") + `"}`, nil},
		{"escaped quotes do not end a string", `{"search":"\"` + str(40, "[") + `\\\"x"}`, nil},
		{"a deep body that is not JSON is refused for its depth", str(33, "["), []string{tooDeepProblem}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := problemsOf(t, v.ValidateRequest("browserSearchEvents", []byte(tc.body)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMemberNameLength(t *testing.T) {
	long := func(n int, c string) string { return str(n, c) }
	names := "must not have member names longer than 128 characters"
	runRules(t, session, checkoutSession, []ruleCase{
		ok("unknown member of 128 characters", long(128, "n"), 1),
		ok("128 two-byte characters", long(128, "é"), 1),
		bad("unknown member of 129 characters", long(129, "n"), 1, "body "+names),
		bad("129 characters deep inside an unknown member", "utm.source", map[string]any{long(129, "é"): 1},
			"utm.source "+names),
		bad("a waiver id of 129 characters", "waiversAccepted", map[string]any{long(129, "w"): true},
			"waiversAccepted "+names),
	})
}

func TestCaseTwins(t *testing.T) {
	twin := func(path string) string {
		return path + " is given more than once: member names are compared without regard to case"
	}
	// encoding/json folds the Kelvin sign to K, the long s to S and the Greek sigmas to one.
	pairs := [][2]string{{"limit", "LIMIT"}, {"k", "\u212a"}, {"s", "\u017f"}, {"σ", "ς"}, {"Σ", "ς"}, {"ǅ", "ǆ"}}
	for _, pair := range pairs {
		for _, fillers := range []int{0, 40} {
			t.Run(fmt.Sprintf("%q %q with %d more members", pair[0], pair[1], fillers), func(t *testing.T) {
				obj := map[string]any{pair[0]: 1, pair[1]: 2}
				for i := range fillers {
					obj[fmt.Sprintf("m%d", i)] = i
				}
				got := problemsOf(t, validator(t).ValidateRequest("browserSearchEvents", encode(t, map[string]any{"x": obj})))
				want := []string{twin(showPath([]step{member("x"), member(min(pair[0], pair[1]))}))}
				if !slices.Equal(got, want) {
					t.Errorf("got %q, want %q", got, want)
				}
			})
		}
	}
}

// TestCaseTwinsInALargeObject checks an object of 200,000 members with one pair of twins among
// them: comparing every pair of names, as the check once did, would take 2e10 comparisons.
func TestCaseTwinsInALargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"x":{`)
	for i := range 200_000 {
		fmt.Fprintf(&b, `"member%d":0,`, i)
	}
	b.WriteString(`"MEMBER77777":1}}`)
	got := problemsOf(t, validator(t).ValidateRequest("browserSearchEvents", []byte(b.String())))
	want := []string{"x.MEMBER77777 is given more than once: member names are compared without regard to case"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestFoldNameFoldsAsEncodingJSON checks that two names fold alike exactly when
// strings.EqualFold, which matches encoding/json's matching, says they are equal, for every
// rune against every rune of its case-folding orbit and its neighbours.
func TestFoldNameFoldsAsEncodingJSON(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !unicode.IsPrint(r) && r > 0x7f {
			continue
		}
		others := []rune{r + 1, unicode.SimpleFold(r), unicode.ToUpper(r), unicode.ToLower(r), unicode.ToTitle(r)}
		for _, o := range others {
			a, b := "x"+string(r), "X"+string(o)
			if got, want := foldName(a) == foldName(b), strings.EqualFold(a, b); got != want {
				t.Fatalf("%q and %q: folded alike %v, EqualFold %v", a, b, got, want)
			}
		}
	}
}

func TestShapeProblemsAreTheFirstByPathAndCounted(t *testing.T) {
	numbers := make([]any, 300)
	for i := range numbers {
		numbers[i] = num("1e999")
	}
	body := encode(t, map[string]any{"x": numbers, "b": map[string]any{"LIMIT": 1, "limit": 2}})
	got := problemsOf(t, validator(t).ValidateRequest("browserSearchEvents", body))
	if len(got) != maxProblems+1 {
		t.Fatalf("got %d problems", len(got))
	}
	want := []string{
		"b.LIMIT is given more than once: member names are compared without regard to case",
		"x[0] is a number outside the range this API accepts",
		"x[1] is a number outside the range this API accepts",
	}
	if !slices.Equal(got[:3], want) || got[99] != "x[98] is a number outside the range this API accepts" ||
		got[100] != "and 201 more problems" {
		t.Errorf("got %q ... %q", got[:3], got[99:])
	}
}

// TestLongPathsAreShortened checks that a problem shows a path of long member names nested deep
// by its start and its end, and long names by their start.
func TestLongPathsAreShortened(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"x":`)
	for i := range 29 {
		fmt.Fprintf(&b, `{"%s%03d":`, str(125, "a"), i)
	}
	b.WriteString(`[1e999]` + str(29, "}") + "}")
	got := problemsOf(t, validator(t).ValidateRequest("browserSearchEvents", []byte(b.String())))
	// The first 60 bytes, "…", the last 60 bytes; each name shows its first 32 characters.
	want := "x." + str(32, "a") + "…." + str(22, "a") + "…" + str(18, "a") + "…." + str(32, "a") + "…[0] " +
		"is a number outside the range this API accepts"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
