package testkit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Response is an HTTP answer with its JSON object body decoded.
type Response struct {
	Status int
	Header http.Header
	// Body is the decoded body when it is a JSON object.
	Body map[string]any
	Raw  []byte
}

// Do sends method url with body as JSON (a []byte, string or json.RawMessage is sent as it is)
// and headers (Content-Type defaults to application/json), and returns the answer. A body that
// starts like a JSON object but does not decode fails the test.
func Do(t testing.TB, method, url string, body any, headers map[string]string) Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	case json.RawMessage:
		rd = bytes.NewReader(b)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read the answer: %v", method, url, err)
	}
	r := Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			t.Fatalf("%s %s: body %s: %v", method, url, raw, err)
		}
	}
	return r
}
