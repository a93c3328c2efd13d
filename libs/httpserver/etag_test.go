package httpserver

import "testing"

func TestETagMatches(t *testing.T) {
	const etag = `"abc"`
	for header, want := range map[string]bool{
		`"abc"`:               true,
		`W/"abc"`:             true,
		`"x", W/"abc"`:        true,
		`*`:                   true,
		`"abd"`:               false,
		`"x","y"`:             false,
		``:                    false,
		`abc`:                 false,
		`  "other" ,  "abc" `: true,
	} {
		if got := ETagMatches(header, etag); got != want {
			t.Errorf("If-None-Match %q against %s: %v, want %v", header, etag, got, want)
		}
	}
}
