package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// response is one answer from the system.
type response struct {
	status int
	header http.Header
	body   []byte
}

// errorBody is the standard error format.
type errorBody struct {
	StatusCode *int   `json:"statusCode"`
	Message    any    `json:"message"`
	Error      string `json:"error"`
	RequestID  string `json:"requestId"`
}

// req describes one request.
type req struct {
	method, url string
	headers     map[string]string
	body        any
}

// do sends r and returns the answer, failing t when it could not be sent and checking that a
// refusal is in the standard error format.
func do(t testing.TB, r req) response {
	t.Helper()
	res, err := roundTrip(t.Context(), r)
	if err != nil {
		t.Fatalf("%s %s: %v", r.method, r.url, err)
	}
	if res.status >= http.StatusBadRequest {
		standardError(t, r, res.status, res.body)
	}
	return res
}

// roundTrip sends r (a body other than a string or bytes as JSON) and returns the answer;
// unlike do, it may be called from any goroutine.
func roundTrip(ctx context.Context, r req) (response, error) {
	var body io.Reader
	switch b := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		body = bytes.NewReader(raw)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		return response{}, err
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.headers {
		hr.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: raw}, err
}

// standardError checks that a refusal is the standard error body with a code (and problem
// codes) the document lists, whatever the test goes on to assert.
func standardError(t testing.TB, r req, status int, body []byte) {
	t.Helper()
	v, err := document()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateError(status, body); err != nil {
		t.Errorf("%s %s answered %d with an error body the document does not describe (%v): %s", r.method, r.url, status, err, body)
	}
}

// wantCode checks a response is status with the standard error body whose code is code.
func wantCode(t testing.TB, res response, status int, code string) {
	t.Helper()
	var b struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(res.body, &b); res.status != status || err != nil || b.Code != code {
		t.Fatalf("answered %d %s, want %d with code %s", res.status, res.body, status, code)
	}
}

// gw returns the URL of an external path on the first gateway.
func gw(path string) string { return sys.GatewayURL() + "/external/v1" + path }

func secret(key string) map[string]string { return map[string]string{"Authorization": "Bearer " + key} }

func browser(key, origin string) map[string]string {
	h := map[string]string{"x-publishable-key": key}
	if origin != "" {
		h["Origin"] = origin
	}
	return h
}

// wantError checks a response is status with the standard error body whose message contains
// wantMessage.
func wantError(t testing.TB, res response, status int, wantMessage string) {
	t.Helper()
	if res.status != status {
		t.Fatalf("status %d, want %d; body %s", res.status, status, res.body)
	}
	var b errorBody
	if err := json.Unmarshal(res.body, &b); err != nil {
		t.Fatalf("error body %q is not JSON: %v", res.body, err)
	}
	if b.StatusCode == nil || *b.StatusCode != status || b.Error != http.StatusText(status) {
		t.Fatalf("error body %s lacks statusCode %d and error %q", res.body, status, http.StatusText(status))
	}
	if b.RequestID == "" || res.header.Get("X-Request-Id") != b.RequestID {
		t.Fatalf("requestId %q not echoed in X-Request-Id %q", b.RequestID, res.header.Get("X-Request-Id"))
	}
	msg, _ := json.Marshal(b.Message)
	if !strings.Contains(string(msg), wantMessage) {
		t.Fatalf("message %s does not contain %q", msg, wantMessage)
	}
}

// newOrganizer creates an organizer of the test's own.
func newOrganizer(t testing.TB) string {
	t.Helper()
	id, err := sys.CreateOrganizer(t.Context(), t.Name(), "")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func newKey(t testing.TB, org string, spec stack.KeySpec) stack.Key {
	t.Helper()
	if spec.Name == "" {
		spec.Name = t.Name()
	}
	k, err := sys.CreateKey(t.Context(), org, spec)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
