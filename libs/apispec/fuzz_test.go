package apispec

import (
	"errors"
	"strings"
	"testing"
)

// FuzzValidateRequest checks that the validator never panics and always
// answers nil or a *ValidationError with problems, whatever the body.
func FuzzValidateRequest(f *testing.F) {
	ops := Operations()
	seeds := [][]byte{
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
		encode(f, checkoutSession()),
		encode(f, createRegistration()),
		encode(f, searchRegistrations()),
	}
	for i, s := range seeds {
		f.Add(uint8(i), s)
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
	})
}
