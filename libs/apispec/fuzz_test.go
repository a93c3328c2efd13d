package apispec

import (
	"errors"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec/apispectest"
)

// FuzzValidateRequest feeds arbitrary bodies to every operation of the document that takes one
// (a new operation is fuzzed without a change here): the validator never panics and answers
// nil or a *ValidationError with at most maxProblems+1 problems, each naming a path.
func FuzzValidateRequest(f *testing.F) {
	var ops []Operation
	for _, op := range Operations() {
		if op.HasBody {
			ops = append(ops, op)
		}
	}
	generic := [][]byte{
		nil,
		[]byte(`{}`),
		[]byte(`[]`),
		[]byte(`null`),
		[]byte(`{"limit":1e999999}`),
		[]byte(`{"athletes":[{"phone":"+1","birthDate":"2023-02-29"}]}`),
		[]byte(`{"waiversAccepted":{"":true,"a b":1}}`),
		[]byte(`{"ipEnrichment":{"network":{"x":[[[[]]]]}}}`),
		[]byte(`{"legalSignature":{"strokes":[[{"x":1.0000000001,"t":-0}]]}}`),
		[]byte("{\"search\":\"\xff\xfe\"}"),
		[]byte(`{"x":` + str(40, "[") + str(40, "]") + `}`),
		[]byte(`{"x":[{"` + str(129, "n") + `":1}]}`),
		[]byte(`{"selectedSupplementIds":[` + strings.TrimSuffix(str(60, "1,"), ",") + `]}`),
		[]byte(`{"k":1,"K":2,"a":{"\u212a":1,"k":2},"athletes":[{}],"waiversAccepted":{"` + str(129, "w") + `":1}}`),
	}
	for i, op := range ops {
		f.Add(uint8(i), apispectest.Encode(apispectest.Minimal(op.ID)))
	}
	for i, s := range generic {
		f.Add(uint8(i), s)
	}
	for _, body := range []map[string]any{checkoutSession(), createRegistration(), searchRegistrations()} {
		for i := range ops {
			f.Add(uint8(i), encode(f, body))
		}
	}
	v := validator(f)
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		op := ops[int(opIndex)%len(ops)]
		err := v.ValidateRequest(op.ID, body)
		if err == nil {
			return
		}
		var verr *ValidationError
		if !errors.As(err, &verr) {
			t.Fatalf("%s: got %T %v, want *ValidationError", op.ID, err, err)
		}
		if len(verr.Problems) == 0 || len(verr.Problems) > maxProblems+1 {
			t.Fatalf("%s: %d problems", op.ID, len(verr.Problems))
		}
		for _, p := range verr.Problems {
			if p.Message == "" || p.Code == "" || !strings.HasPrefix(p.Message, p.Path) {
				t.Fatalf("%s: a problem without a message or a code, or whose message does not start with its path, among %+v", op.ID, verr.Problems)
			}
		}
	})
}
