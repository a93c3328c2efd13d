package apispec

import "testing"

// BenchmarkValidateCheckoutSession measures the gateway's cost for the
// largest common body: a full checkout session with two athletes, a guest,
// a three-stroke signature (240 points) and IP metadata.
func BenchmarkValidateCheckoutSession(b *testing.B) {
	v := validator(b)
	body := encode(b, checkoutSession())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateRequest(session, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateCheckoutSessionInvalid measures a body with problems,
// which also pays for wording them.
func BenchmarkValidateCheckoutSessionInvalid(b *testing.B) {
	v := validator(b)
	body := encode(b, with(b, with(b, checkoutSession(), "ipEnrichment.foo", 1), "athletes[1].phone", "0"))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateRequest(session, body); err == nil {
			b.Fatal("want problems")
		}
	}
}

// BenchmarkValidateSearchEvents measures a small, typical body.
func BenchmarkValidateSearchEvents(b *testing.B) {
	v := validator(b)
	body := []byte(`{"search":"madrid","limit":20,"offset":40}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateRequest("browserSearchEvents", body); err != nil {
			b.Fatal(err)
		}
	}
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
