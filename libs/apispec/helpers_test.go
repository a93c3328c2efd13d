package apispec

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// maxSafe is the largest integer the API accepts (2^53 - 1).
const maxSafe = "9007199254740991"

// testValidator is shared by the tests; a Validator is safe for concurrent use.
var testValidator = sync.OnceValues(NewValidator)

// validator returns the shared validator or stops the test.
func validator(tb testing.TB) *Validator {
	tb.Helper()
	v, err := testValidator()
	if err != nil {
		tb.Fatalf("NewValidator: %v", err)
	}
	return v
}

// removeMarker is the type of remove.
type removeMarker struct{}

// remove, passed as the value to with, deletes the key instead of setting it.
var remove = removeMarker{}

// num returns an exact JSON number literal.
func num(s string) json.Number { return json.Number(s) }

// str returns a string of n copies of c.
func str(n int, c string) string { return strings.Repeat(c, n) }

// longEmail returns a valid e-mail address of n characters (200 or more): a local part of 64
// characters, then labels of up to 63.
func longEmail(n int) string {
	local := str(64, "a")
	domain := str(63, "b") + "." + str(63, "c") + "." + str(n-64-1-63-1-63-1-3, "d") + ".es"
	return local + "@" + domain
}

// grown returns a copy of obj with unknown members added until it has n members.
func grown(obj map[string]any, n int) map[string]any {
	out := deepCopy(obj).(map[string]any)
	for i := 0; len(out) < n; i++ {
		out[fmt.Sprintf("unknown%d", i)] = i
	}
	return out
}

// repeat returns n values built by item, one per index.
func repeat(n int, item func(i int) any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = item(i)
	}
	return out
}

// with returns a deep copy of body with the value at path (for example
// "athletes[0].phone" or "legalSignature.strokes[0][1].x") set to value, or
// removed when value is remove.
func with(tb testing.TB, body map[string]any, path string, value any) map[string]any {
	tb.Helper()
	root := deepCopy(body).(map[string]any)
	tokens := splitPath(path)
	var cur any = root
	for i, tok := range tokens {
		last := i == len(tokens)-1
		switch node := cur.(type) {
		case map[string]any:
			if last {
				if value == remove {
					delete(node, tok)
				} else {
					node[tok] = value
				}
				return root
			}
			next, ok := node[tok]
			if !ok {
				next = map[string]any{}
				node[tok] = next
			}
			cur = next
		case []any:
			idx, err := strconv.Atoi(tok)
			if err != nil || idx >= len(node) {
				tb.Fatalf("path %s: bad index %q", path, tok)
			}
			if last {
				node[idx] = value
				return root
			}
			cur = node[idx]
		default:
			tb.Fatalf("path %s: %q is not a container", path, tok)
		}
	}
	return root
}

// splitPath splits "a.b[0][1].c" into its keys and indexes.
func splitPath(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			out = append(out, key)
		}
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			out = append(out, idx)
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// encode marshals a test body.
func encode(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("marshal: %v", err)
	}
	return b
}

// problemsOf returns the problems of a *ValidationError, nil for nil, and
// stops the test on any other error.
func problemsOf(tb testing.TB, err error) []string {
	tb.Helper()
	if err == nil {
		return nil
	}
	var verr *ValidationError
	if !errors.As(err, &verr) {
		tb.Fatalf("got %T %v, want *ValidationError", err, err)
	}
	if len(verr.Problems) == 0 {
		tb.Fatal("ValidationError without problems")
	}
	return verr.Messages()
}

// ruleCase is one accepted or refused value of one rule.
type ruleCase struct {
	name  string
	path  string
	value any
	// want lists the exact problems; empty means the body is accepted.
	want []string
}

// ok builds an accepted case.
func ok(name, path string, value any) ruleCase {
	return ruleCase{name: name, path: path, value: value}
}

// bad builds a refused case with its exact problems.
func bad(name, path string, value any, want ...string) ruleCase {
	return ruleCase{name: name, path: path, value: value, want: want}
}

// runRules applies each case to a fresh copy of base and checks the
// problems of operationID.
func runRules(t *testing.T, operationID string, base func() map[string]any, cases []ruleCase) {
	t.Helper()
	v := validator(t)
	if err := v.ValidateRequest(operationID, encode(t, base())); err != nil {
		t.Fatalf("base body of %s refused: %v", operationID, err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := encode(t, with(t, base(), tc.path, tc.value))
			got := problemsOf(t, v.ValidateRequest(operationID, body))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s = %v:\n got  %q\n want %q", tc.path, tc.value, got, tc.want)
			}
		})
	}
}
