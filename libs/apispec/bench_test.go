package apispec

import (
	"testing"

	"github.com/podiumhq/podium/libs/apispec/apispectest"
)

// BenchmarkBrowserBodies measures the validation of the largest body each browser operation
// accepts: its largest legitimate body grown to the operation's byte limit ("benign"), next to
// one hostile body of at most that size per check on a body, each built to be the worst case
// for it. The cost of a hostile body should stay within a small factor of the benign one's
// (target: 3x).
func BenchmarkBrowserBodies(b *testing.B) {
	v := validator(b)
	for _, op := range Operations() {
		if op.Surface != Browser || !op.HasBody {
			continue
		}
		b.Run(op.ID+"/benign", func(b *testing.B) {
			benchmarkBody(b, v, op.ID, apispectest.Pad(apispectest.LargestJSON(op.ID), op.MaxBodyBytes), true)
		})
		for _, h := range apispectest.Hostile(op.ID, op.MaxBodyBytes, nil) {
			b.Run(op.ID+"/"+h.Check, func(b *testing.B) { benchmarkBody(b, v, op.ID, h.JSON, h.Valid) })
		}
	}
}

func benchmarkBody(b *testing.B, v *Validator, op string, body []byte, valid bool) {
	benchmarkWith(b, v.ValidateRequest, op, body, valid)
}

// benchmarkBoth measures the compiled checks the gateway runs ("compiled") beside the library
// path they replace ("library": decoding, the walks of nesting, shape and bounds, and the
// schema library), on the same body in the same run.
func benchmarkBoth(b *testing.B, v *Validator, op string, body []byte, valid bool) {
	b.Run("compiled", func(b *testing.B) { benchmarkWith(b, v.ValidateRequest, op, body, valid) })
	b.Run("library", func(b *testing.B) { benchmarkWith(b, v.validateRequestWithLibrary, op, body, valid) })
}

func benchmarkWith(b *testing.B, validate func(string, []byte) error, op string, body []byte, valid bool) {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := validate(op, body); (err == nil) != valid {
			b.Fatalf("valid %v, got %v", valid, err)
		}
	}
}

// BenchmarkValidateCheckoutSession measures the gateway's cost for a
// common body: a full checkout session with two athletes, a guest,
// a three-stroke signature (240 points) and IP metadata.
func BenchmarkValidateCheckoutSession(b *testing.B) {
	v := validator(b)
	body := encode(b, checkoutSession())
	benchmarkBoth(b, v, session, body, true)
}

// BenchmarkValidateSearchEvents measures a small, typical body.
func BenchmarkValidateSearchEvents(b *testing.B) {
	v := validator(b)
	benchmarkBoth(b, v, "browserSearchEvents", []byte(`{"search":"madrid","limit":20,"offset":40}`), true)
}

// BenchmarkNewValidator measures compiling every schema of the document.
func BenchmarkNewValidator(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewValidator(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateCreateRegistration measures the gateway's validation of the largest
// registration create an organizer backend may send.
func BenchmarkValidateCreateRegistration(b *testing.B) {
	v := validator(b)
	benchmarkBoth(b, v, "organizerCreateRegistration", apispectest.LargestJSON("organizerCreateRegistration"), true)
}

// BenchmarkValidateTypicalCreate measures the gateway's validation of a create as organizer
// backends send most of them: one athlete (make bench's registrations scenario sends these).
// Target: the whole create costs the gateway at most 40 µs of CPU.
func BenchmarkValidateTypicalCreate(b *testing.B) {
	v := validator(b)
	body := []byte(`{"eventId":"evt_00000000000000000001","categoryId":"cat_00000000000000000001","teamName":"Ana García",` +
		`"club":"Madrid","athletes":[{"fullname":"Ana García","idNumber":"12345678Z","email":"ana@example.com",` +
		`"phone":"+34600000000","gender":"FEMALE","birthDate":"1990-05-01"}]}`)
	benchmarkBoth(b, v, "organizerCreateRegistration", body, true)
}
