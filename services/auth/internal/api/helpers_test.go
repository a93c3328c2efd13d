package api_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
)

// wantError checks the standard error body: status, message and a request id matching the
// X-Request-Id header.
func wantError(t *testing.T, r testkit.Response, status int, message any) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	if int(r.Body["statusCode"].(float64)) != status || r.Body["error"] == "" {
		t.Fatalf("body is not the standard error body: %s", r.Raw)
	}
	if id := r.Body["requestId"]; id == nil || id != r.Header.Get("X-Request-Id") {
		t.Fatalf("requestId %v does not match the header %q", id, r.Header.Get("X-Request-Id"))
	}
	if message != nil && fmt.Sprint(r.Body["message"]) != fmt.Sprint(message) {
		t.Fatalf("message %v\nwant    %v", r.Body["message"], message)
	}
}

// wantStrings checks that a decoded JSON value is an array (never null) of the wanted strings.
func wantStrings(t *testing.T, field string, got any, want ...string) {
	t.Helper()
	arr, ok := got.([]any)
	if !ok {
		t.Fatalf("%s = %v, want an array", field, got)
	}
	var s []string
	for _, v := range arr {
		s = append(s, fmt.Sprint(v))
	}
	if !slices.Equal(s, want) {
		t.Fatalf("%s = %q, want %q", field, s, want)
	}
}
