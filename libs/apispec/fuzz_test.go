package apispec

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

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
	for i, op := range ops {
		f.Add(uint8(i), apispectest.Encode(apispectest.Minimal(op.ID)))
	}
	for i, s := range genericBodies() {
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

// FuzzCompiledChecksMatchTheLibrary feeds arbitrary bodies to every operation of the document
// that takes one, through the compiled checks and through the library path, which must answer
// alike, problem for problem (differential_test.go).
func FuzzCompiledChecksMatchTheLibrary(f *testing.F) {
	ops := bodyOperations()
	for i, op := range ops {
		for _, body := range baseBodies(op.ID) {
			f.Add(uint8(i), encode(f, body))
		}
		if op.MaxBodyBytes <= 4096 {
			for _, h := range apispectest.Hostile(op.ID, op.MaxBodyBytes, nil) {
				f.Add(uint8(i), h.JSON)
			}
		}
	}
	for i, body := range genericBodies() {
		f.Add(uint8(i), body)
	}
	v := validator(f)
	f.Fuzz(func(t *testing.T, opIndex uint8, body []byte) {
		compareWithLibrary(t, v, ops[int(opIndex)%len(ops)].ID, body)
	})
}

// FuzzFormatsMatchTheLibrary checks the formats the compiled checks assert against the schema
// library's own checks of them, on any string.
func FuzzFormatsMatchTheLibrary(f *testing.F) {
	for _, s := range []string{"2024-02-29", "2023-02-29", "0000-02-29", "1900-02-29", "2025-13-01", "2025-1-01",
		"2025-05-01T08:00:00Z", "2025-05-01t08:00:00.123456789+05:30", "2025-05-01T23:59:60Z", "2025-05-01T08:00:60-23:59",
		"2025-05-01T+8:-0:+1z", "2025-05-01T08:00:00.Z", "2025-05-01T08:00:00+0530", "https://example.com/a?b#c",
		"mailto:a@b.es", "//example.com", "http://[::1%25eth0]/", "http://[fe80::1]:80/", "http://a:b:c/", "é"} {
		f.Add(s)
	}
	library := map[string]*jsonschema.Schema{}
	for name, check := range formats {
		if check == nil {
			continue
		}
		c := newSchemaCompiler()
		url := "https://podium.invalid/" + name + ".json"
		if err := c.AddResource(url, map[string]any{"format": name}); err != nil {
			f.Fatal(err)
		}
		schema, err := c.Compile(url)
		if err != nil {
			f.Fatal(err)
		}
		library[name] = schema
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, schema := range library {
			if got, want := formats[name]([]byte(s)), schema.Validate(s) == nil; got != want {
				t.Errorf("format %s of %q: compiled %v, library %v", name, s, got, want)
			}
		}
	})
}

// FuzzMatchersMatchTheirPatterns checks each matcher the compiled checks use in place of a
// pattern's regular expression against that expression, on any valid UTF-8 string (the checks
// read strings decoded as encoding/json decodes them).
func FuzzMatchersMatchTheirPatterns(f *testing.F) {
	for _, s := range []string{"Lucía García", "Iron 🏋️‍♀️", "می\u200cخواهم", "a\nb", "\x1b[2K", "a\u202eb", "\u00ad",
		"\u0600", "\u2028", "\U000E0041", "\ufffd", "\u0085", ""} {
		f.Add(s)
	}
	expressions := map[string]*regexp.Regexp{}
	for source := range matchers {
		expressions[source] = regexp.MustCompile(source)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for source, match := range matchers {
			if got, want := match([]byte(s)), expressions[source].MatchString(s); got != want {
				t.Errorf("pattern %q on %q: matcher %v, expression %v", source, s, got, want)
			}
		}
	})
}
