package apispec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec/apispectest"
)

// The compiled checks (ValidateRequest) are tested against the library path
// (validateRequestWithLibrary: decoding, the walks of nesting, shape and bounds, and the schema
// library): on every body below, and on any body in FuzzCompiledChecksMatchTheLibrary, both give
// the same answer, problem for problem (path, code and words, in order).

// TestCompiledChecksMatchTheLibrary compares the two on the fixtures, the document's examples,
// the smallest, largest and hostile bodies of each operation, the seeds of the fuzz tests, and
// variants of the fixtures with one value changed, removed or added at every place.
func TestCompiledChecksMatchTheLibrary(t *testing.T) {
	v := validator(t)
	for _, op := range bodyOperations() {
		t.Run(op.ID, func(t *testing.T) {
			bodies := corpus(t, op)
			for _, base := range baseBodies(op.ID) {
				bodies = append(bodies, variants(base)...)
			}
			for _, body := range bodies {
				compareWithLibrary(t, v, op.ID, body)
			}
			if len(bodies) < 100 {
				t.Errorf("only %d bodies compared", len(bodies))
			}
		})
	}
}

// compareWithLibrary fails the test unless the compiled checks and the library path answer
// body alike.
func compareWithLibrary(t *testing.T, v *Validator, operationID string, body []byte) {
	t.Helper()
	got := v.ValidateRequest(operationID, body)
	want := v.validateRequestWithLibrary(operationID, body)
	if !sameAnswer(got, want) {
		t.Errorf("%s, body %.300q:\n compiled %v\n library  %v", operationID, body, got, want)
	}
}

// sameAnswer reports whether two answers of a validation are the same: nil, the same problems,
// or errors that say the same.
func sameAnswer(a, b error) bool {
	var va, vb *ValidationError
	switch {
	case errors.As(a, &va) && errors.As(b, &vb):
		return slices.Equal(va.Problems, vb.Problems)
	case a == nil || b == nil:
		return a == nil && b == nil
	default:
		return a.Error() == b.Error()
	}
}

// bodyOperations returns the operations that take a body.
func bodyOperations() []Operation {
	var ops []Operation
	for _, op := range Operations() {
		if op.HasBody {
			ops = append(ops, op)
		}
	}
	return ops
}

// fixtures returns the valid bodies the tests build for an operation.
func fixtures(operationID string) []map[string]any {
	switch operationID {
	case "organizerCreateRegistration", "organizerUpdateRegistration":
		return []map[string]any{createRegistration()}
	case "organizerSearchRegistrations":
		return []map[string]any{searchRegistrations()}
	case "organizerSearchEvents":
		return []map[string]any{searchEvents()}
	case "browserSearchEvents":
		return []map[string]any{browserSearchEvents()}
	case "browserCheckoutSummary":
		return []map[string]any{checkoutSummary()}
	case session:
		return []map[string]any{checkoutSession()}
	case "browserLookupReceipts", "browserSendReceipts":
		return []map[string]any{receipt()}
	case "organizerCreateWebhookEndpoint":
		return []map[string]any{webhookEndpoint()}
	case "organizerUpdateWebhookEndpoint":
		return []map[string]any{webhookEndpointUpdate()}
	case "organizerRecoverWebhookDeliveries":
		return []map[string]any{recoverDeliveries()}
	case "organizerCheckIn":
		return []map[string]any{checkInScan()}
	case "organizerCheckInBatch":
		return []map[string]any{checkInBatch()}
	case "organizerTransferRegistration":
		return []map[string]any{{"athlete": athlete()}, {"athlete": athlete(), "waiversAccepted": map[string]any{"wvr_liability": true}}}
	case "organizerSignRegistrationWaivers":
		return []map[string]any{{"waiversAccepted": map[string]any{"wvr_liability": true}}}
	case "organizerCreateRefund":
		return []map[string]any{createRefund()}
	}
	return nil
}

// baseBodies are the bodies variants are made of: the operation's smallest body and fixtures.
func baseBodies(operationID string) []map[string]any {
	return append([]map[string]any{apispectest.Minimal(operationID)}, fixtures(operationID)...)
}

// corpus returns the bodies of an operation that are compared as they are.
func corpus(t *testing.T, op Operation) [][]byte {
	bodies := genericBodies()
	for _, body := range append(baseBodies(op.ID), createRegistration(), checkoutSession(), searchRegistrations()) {
		bodies = append(bodies, encode(t, body))
	}
	bodies = append(bodies, apispectest.LargestJSON(op.ID))
	for _, h := range apispectest.Hostile(op.ID, op.MaxBodyBytes, nil) {
		bodies = append(bodies, h.JSON)
	}
	item := spec.tree["paths"].(map[string]any)[op.Path].(map[string]any)
	node := item[strings.ToLower(op.Method)].(map[string]any)
	ptr := "/paths/" + escapePointer(op.Path) + "/" + strings.ToLower(op.Method) + "/requestBody"
	for _, ex := range examples(t, node["requestBody"], ptr) {
		bodies = append(bodies, ex)
	}
	return bodies
}

// genericBodies are bodies worth trying on any operation: not JSON, not objects, nested too
// deep, with huge numbers, long or twin member names, U+0000 and bad UTF-8.
func genericBodies() [][]byte {
	return [][]byte{
		nil, []byte(`{}`), []byte(`[]`), []byte(`null`), []byte(`"x"`), []byte(`1`), []byte(`true`),
		[]byte(`{`), []byte(`{"a":}`), []byte(`{"a":1,}`), []byte(`[1,]`), []byte(`{} {}`), []byte(`{"a":01}`),
		[]byte(`{"a":1.}`), []byte(`{"a":-}`), []byte(`{"a":tru}`), []byte(`{"a":"\x"}`), []byte("{\"a\":\"\x01\"}"),
		[]byte(`{"a":"\u12"}`), []byte(`{"a" 1}`), []byte(`{"a":1 "b":2}`), []byte(`{"a":[1 2]}`), []byte(`{1:2}`),
		[]byte(" \u00a0{}"), []byte(`{}]` + str(40, "[")), []byte(str(33, "[") + `x`), []byte(`{"a":1}}` + str(40, "[")),
		[]byte(`{"limit":1e999999}`), []byte(`{"limit":1e2,"offset":-0.0e-0}`), []byte(`{"limit":100.000,"offset":1E+1}`),
		[]byte(`{"limit":1e0000000000000000000000001}`), []byte(`{"x":` + str(40, "[") + str(40, "]") + `}`),
		[]byte(`{"x":` + str(31, "[") + str(31, "]") + `}`), []byte(`{"x":` + str(32, "[") + str(32, "]") + `}`),
		[]byte(`{"athletes":[{"phone":"+1","birthDate":"2023-02-29"}]}`),
		[]byte(`{"waiversAccepted":{"":true,"a b":1}}`), []byte(`{"ipEnrichment":{"network":{"x":[[[[]]]]}}}`),
		[]byte(`{"legalSignature":{"strokes":[[{"x":1.0000000001,"t":-0}]]}}`), []byte("{\"search\":\"\xff\xfe\"}"),
		[]byte("{\"s\xffx\":1,\"s\xfex\":2}"), []byte(`{"x":[{"` + str(129, "n") + `":1}]}`),
		[]byte(`{"selectedSupplementIds":[` + strings.TrimSuffix(str(60, "1,"), ",") + `]}`),
		[]byte(`{"k":1,"K":2,"a":{"\u212a":1,"k":2},"athletes":[{}],"waiversAccepted":{"` + str(129, "w") + `":1}}`),
		[]byte(`{"limit":1,"limit":"x","LIMIT":2,"limit":3}`), []byte(`{"search":"a\u0000b","x":{"\u0000":1}}`),
		[]byte(`{"search":"\ud83c\udfcb\ud83c","status":"\u0050UBLISHED","\u006cimit":"1"}`),
		[]byte(`{"search":"\udfcb\ud83c\u0041\"\\\/\b\f\n\r\t"}`), []byte(`{"email":"` + str(300, "é") + `"}`),
		[]byte(`{"athletes":"x","athletes":[],"teamName":{"a":1,"a":` + str(300, "1") + `}}`),
		[]byte(`{"athletes":[{"phone":1,"x":1e999}],"athletes":[{}],"ipEnrichment":{"provider":"x","provider":"ipquery","foo":1,"foo":2}}`),
		[]byte(`{"selectedSupplementIds":[1e999,` + strings.TrimSuffix(str(60, `"x",`), ",") + `],"waiversAccepted":{"":1,"":true}}`),
		[]byte(`{` + strings.TrimSuffix(str(70, `"a":[{"b":1,"B":2}],`), ",") + `}`),
		// Objects past pairwiseNames, whose names are indexed: twins in ASCII and by Unicode
		// folding (the Kelvin sign folds with k), exact repeats, and an indexed object inside
		// another whose index must outlive it.
		[]byte(`{` + numbered("m", 0, 40) + `,"\u212a1":1,"k1":"x","M3":2,"m3":"again","limit":"x","limit":1}`),
		[]byte(`{` + numbered("m", 0, 20) + `,"a":{` + numbered("n", 0, 40) + `,"N7":1},` + numbered("m", 20, 60) + `,"m55":2,"M21":1}`),
		[]byte(`{` + numbered("search", 0, 30) + `,"limit":1e999,"selectedSupplementIds":{` + numbered("s", 0, 30) + `},"limit":2}`),
	}
}

// numbered writes the object members prefix<from>:0 to prefix<to-1>:0.
func numbered(prefix string, from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if i > from {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s%d":0`, prefix, i)
	}
	return b.String()
}

// oddValues replace one value of a body in its variants: every JSON type, numbers at and past
// the bounds the document uses, strings empty, long, malformed or nearly well-formed.
var oddValues = []any{
	"x", "", str(130, "é"), str(1001, "a"), "ABC", "2024-02-29", "2023-02-29", "2025-05-01T08:00:00Z",
	"2025-05-01T23:59:60+00:00", "https://example.com/x", "//example.com", "a@b.co", "a\u0000b", "FEMALE",
	num("0"), num("-1"), num("1.5"), num("1e2"), num("100.0"), num("101"), num("9007199254740992"), num("1e999"),
	num("300001"), num("-0"), true, false, nil,
	[]any{}, []any{"x", num("1")}, map[string]any{}, map[string]any{"a": num("1"), "A": num("2")},
}

// variants returns body encoded with one change each: at every place of the body (the first
// two items of an array), its value replaced by each of oddValues or removed, or a member
// added beside it.
func variants(body map[string]any) [][]byte {
	var out [][]byte
	var walk func(node any, path []any)
	change := func(path []any, value any) {
		out = append(out, apispectest.Encode(replaced(body, path, value)))
	}
	walk = func(node any, path []any) {
		if len(path) > 0 {
			for _, v := range oddValues {
				change(path, v)
			}
			change(path, remove)
		}
		switch n := node.(type) {
		case map[string]any:
			change(append(slices.Clone(path), "extra"), "x")
			for k, child := range n {
				walk(child, append(slices.Clone(path), k))
				change(append(slices.Clone(path), strings.ToUpper(k)), "x")
			}
		case []any:
			for i, child := range n[:min(len(n), 2)] {
				walk(child, append(slices.Clone(path), i))
			}
		}
	}
	walk(body, nil)
	return out
}

// replaced returns a deep copy of body with the value at path (member names and indexes) set
// to value, or removed when value is remove (an item removed is set to null).
func replaced(body map[string]any, path []any, value any) any {
	root := deepCopy(body)
	node := root
	for i, step := range path {
		last := i == len(path)-1
		switch n := node.(type) {
		case map[string]any:
			key := step.(string)
			switch {
			case !last:
				node = n[key]
			case value == remove:
				delete(n, key)
			default:
				n[key] = value
			}
		case []any:
			if !last {
				node = n[step.(int)]
			} else if n[step.(int)] = value; value == remove {
				n[step.(int)] = nil
			}
		default:
			panic(fmt.Sprintf("path %v crosses a scalar", path))
		}
	}
	return root
}
