// Package contracttest checks what a service answers against the contract, for the fuzz tests
// of every trust boundary: the operations of the document a Fiber app serves, bodies to start
// fuzzing them from, a request sent to the app in memory, and the property every answer holds:
// never a 5xx, and for every non-2xx the standard error body.
package contracttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/apispectest"
	"github.com/podiumhq/podium/libs/fault"
)

// BasePath is the prefix of every operation's path.
const BasePath = "/external/v1"

// Served returns the operations of the document that app routes, in the document's order: an
// operation added to the document is fuzzed as soon as its owner routes it.
func Served(app *fiber.App) []apispec.Operation {
	routes := map[string]bool{}
	for _, r := range app.GetRoutes(true) {
		routes[r.Method+" "+r.Path] = true
	}
	var ops []apispec.Operation
	for _, op := range apispec.Operations() {
		if routes[op.Method+" "+BasePath+fiberPath(op.Path)] {
			ops = append(ops, op)
		}
	}
	return ops
}

// WithBody returns the operations of ops that take a request body.
func WithBody(ops []apispec.Operation) []apispec.Operation {
	var out []apispec.Operation
	for _, op := range ops {
		if op.HasBody {
			out = append(out, op)
		}
	}
	return out
}

// fiberPath writes an OpenAPI path template ("/events/{eventId}") as a Fiber route
// ("/events/:eventId").
func fiberPath(template string) string {
	return strings.NewReplacer("{", ":", "}", "").Replace(template)
}

// Path returns the operation's path under BasePath with each parameter replaced by the
// path-escaped value params names for it ("x" when it names none).
func Path(op apispec.Operation, params map[string]string) string {
	parts := strings.Split(op.Path, "/")
	for i, p := range parts {
		if name, ok := strings.CutPrefix(p, "{"); ok {
			v, found := params[strings.TrimSuffix(name, "}")]
			if !found {
				v = "x"
			}
			parts[i] = url.PathEscape(v)
		}
	}
	return BasePath + strings.Join(parts, "/")
}

// Seeds returns bodies to start fuzzing an operation from: a small valid body of it
// (apispectest.Minimal), each of bodies, and malformed ones every decoder must refuse cleanly.
func Seeds(operationID string, bodies ...map[string]any) [][]byte {
	minimal := apispectest.Encode(apispectest.Minimal(operationID))
	seeds := [][]byte{minimal, minimal[:len(minimal)/2], nil, []byte(`{}`), []byte(`[]`), []byte(`null`), []byte(`"x"`),
		[]byte(`{"limit":1e999,"offset":-0.5,"athletes":{},"email":["a@b.es"]}`), []byte("{\"search\":\"\xff\x00\"}")}
	for _, b := range bodies {
		seeds = append(seeds, apispectest.Encode(b))
	}
	return seeds
}

// Answer is an HTTP answer read whole.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// maxHead bounds the request head (request line and headers) Send sends: the HTTP server reads
// a head into a 4 KiB buffer and answers a longer one 431 itself, before any route (in the
// standard error format: libs/httpserver's TestStandardErrorBodies), while an app served in
// memory gives no answer to it at all.
const maxHead = 3072

// Send sends a request to app in memory, with body as JSON when it is not nil, and reads the
// answer. It skips a request whose head the HTTP server would not read (see maxHead) and stops
// the test when the app gives no answer at all.
func Send(tb testing.TB, app *fiber.App, method, path string, headers map[string]string, body []byte) Answer {
	tb.Helper()
	head := len(method) + len(path) + 128 // the request line, Host, Content-Type and Content-Length
	for k, v := range headers {
		head += len(k) + len(v) + 4
	}
	if head > maxHead {
		tb.Skipf("a request head of about %d bytes is answered 431 by the HTTP server, before any route", head)
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req := httptest.NewRequestWithContext(context.Background(), method, path, rd)
	if body != nil {
		req.Header.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := app.Test(req, 30_000)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatalf("%s %s: read the answer: %v", method, path, err)
	}
	return Answer{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// Check returns what is wrong with an answer to the operation: a 5xx, a non-2xx whose body is
// not the standard error body, or a body the document does not describe for its status.
func Check(v *apispec.Validator, operationID string, a Answer) error {
	if a.Status >= http.StatusInternalServerError {
		return fmt.Errorf("answered %d: %s", a.Status, a.Body)
	}
	if a.Status >= http.StatusMultipleChoices {
		if err := StandardError(a); err != nil {
			return err
		}
		if err := v.ValidateError(a.Status, a.Body); err != nil {
			return fmt.Errorf("answered %d with an error the document does not describe (%w): %s", a.Status, err, a.Body)
		}
	}
	err := v.ValidateResponse(operationID, a.Status, a.Body)
	if errors.Is(err, apispec.ErrUndocumentedStatus) {
		return fmt.Errorf("answered %d, a status the document does not give %s: %s", a.Status, operationID, a.Body)
	}
	if err != nil {
		return fmt.Errorf("answered %d with a body the document does not describe (%w): %s", a.Status, err, a.Body)
	}
	return nil
}

// StandardError returns what keeps the answer from being the standard error body: exactly
// statusCode (the answer's status), code (never empty), message (a string, or a list of
// strings, never empty), problems (when present, one per entry of message, in its order),
// error (the status's reason phrase) and requestId (the X-Request-Id header's). Check also
// holds code and the problems' codes to those the document lists.
func StandardError(a Answer) error {
	var body struct {
		StatusCode int             `json:"statusCode"`
		Code       string          `json:"code"`
		Message    json.RawMessage `json:"message"`
		Problems   []fault.Problem `json:"problems"`
		Error      string          `json:"error"`
		RequestID  string          `json:"requestId"`
	}
	d := json.NewDecoder(bytes.NewReader(a.Body))
	d.DisallowUnknownFields()
	if err := d.Decode(&body); err != nil {
		return fmt.Errorf("answered %d with a body that is not the standard error body (%w): %s", a.Status, err, a.Body)
	}
	if d.More() {
		return fmt.Errorf("answered %d with more than the standard error body: %s", a.Status, a.Body)
	}
	var one string
	var many []string
	messageOK := json.Unmarshal(body.Message, &one) == nil && one != "" ||
		json.Unmarshal(body.Message, &many) == nil && len(many) > 0
	switch {
	case body.StatusCode != a.Status:
		return fmt.Errorf("answered %d with statusCode %d: %s", a.Status, body.StatusCode, a.Body)
	case body.Code == "":
		return fmt.Errorf("answered %d without a code: %s", a.Status, a.Body)
	case body.Error != http.StatusText(a.Status):
		return fmt.Errorf("answered %d with error %q, want %q", a.Status, body.Error, http.StatusText(a.Status))
	case !messageOK:
		return fmt.Errorf("answered %d without a message: %s", a.Status, a.Body)
	case body.Problems != nil && !problemsAreMessage(body.Problems, many):
		return fmt.Errorf("answered %d with problems that are not its message: %s", a.Status, a.Body)
	case body.RequestID == "" || body.RequestID != a.Header.Get("X-Request-Id"):
		return fmt.Errorf("answered %d with requestId %q and X-Request-Id %q", a.Status, body.RequestID, a.Header.Get("X-Request-Id"))
	}
	return nil
}

// problemsAreMessage reports whether the problems' sentences are message's, in order.
func problemsAreMessage(problems []fault.Problem, message []string) bool {
	return slices.EqualFunc(problems, message, func(p fault.Problem, m string) bool { return p.Message == m })
}
