package httpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

var errWidgetMissing = fault.NewNotFound("widget")

func newServer(t *testing.T, o httpserver.Options) (*httpserver.Server, string, context.CancelFunc, chan error) {
	t.Helper()
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.BodyLimit == 0 {
		o.BodyLimit = 64
	}
	s := httpserver.New(o)
	s.App.Get("/widgets/:id", func(c *fiber.Ctx) error {
		switch c.Params("id") {
		case "missing":
			return errWidgetMissing
		case "bad":
			return httpserver.BadRequest("a must be set", "b must be at most 3")
		case "boom":
			return errors.New("pq: password authentication failed for user secret")
		case "panic":
			panic("kaboom")
		case "gone":
			return fmt.Errorf("read: %w", fault.NewNotFound("widget 7"))
		case "one-rule":
			return fault.NewUnprocessable("a: too long")
		case "rules":
			return fault.NewUnprocessable("a: too long", "b: too short")
		case "taken":
			return fault.NewConflict("widget taken").WithCode("taken")
		case "later":
			return fault.NewTooManyRequests("slow down", 1500*time.Millisecond)
		case "peer":
			return fault.NewUnavailable("widget", errors.New("dial tcp: refused"))
		case "ours":
			return &fault.Error{Kind: fault.Internal, Problems: []string{"secret detail"}}
		case "rid":
			return c.SendString(httpserver.RequestIDFrom(c.UserContext()))
		}
		return c.JSON(fiber.Map{"id": c.Params("id")})
	})
	s.App.Post("/echo", func(c *fiber.Ctx) error { return c.Send(c.Body()) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, 5*time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return s, "http://" + ln.Addr().String(), cancel, done
}

func get(t *testing.T, method, url, body string, hdr map[string]string) (int, http.Header, httpserver.Body) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b httpserver.Body
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 400 {
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatalf("%s %s: error body %q is not the standard JSON: %v", method, url, raw, err)
		}
	}
	return res.StatusCode, res.Header, b
}

func TestStandardErrorBodies(t *testing.T) {
	_, base, _, _ := newServer(t, httpserver.Options{})

	cases := []struct {
		name, method, path, body string
		status                   int
		message                  any
		retryAfter, code         string
	}{
		{"a failure category", "GET", "/widgets/missing", "", 404, "widget not found", "", "not_found"},
		{"problem list", "GET", "/widgets/bad", "", 400, []any{"a must be set", "b must be at most 3"}, "", "validation_failed"},
		{"unknown route", "GET", "/nope", "", 404, "no route for this method and path", "", "route_not_found"},
		{"body over the limit", "POST", "/echo", strings.Repeat("x", 65), 413, "request body is too large", "", "body_too_large"},
		{"fault: not found, wrapped", "GET", "/widgets/gone", "", 404, "widget 7 not found", "", "not_found"},
		{"fault: one broken rule is a list too", "GET", "/widgets/one-rule", "", 422, []any{"a: too long"}, "", "rule_violated"},
		{"fault: broken rules", "GET", "/widgets/rules", "", 422, []any{"a: too long", "b: too short"}, "", "rule_violated"},
		{"fault: conflict", "GET", "/widgets/taken", "", 409, "widget taken", "", "taken"},
		{"fault: too many requests, wait rounded up", "GET", "/widgets/later", "", 429, "slow down", "2", "rate_limited"},
		{"fault: a dependency down", "GET", "/widgets/peer", "", 503, "the widget service is unavailable; retry after the Retry-After seconds", httpserver.RetryAfterUnavailable, "service_unavailable"},
		{"fault: internal leaks nothing", "GET", "/widgets/ours", "", 500, "internal error; quote the requestId when reporting it", "", "internal_error"},
		{"internal error leaks nothing", "GET", "/widgets/boom", "", 500, "internal error; quote the requestId when reporting it", "", "internal_error"},
		{"panic", "GET", "/widgets/panic", "", 500, "internal error; quote the requestId when reporting it", "", "internal_error"},
		// Answered by the HTTP server itself, before any route: the request's head does not fit
		// its 4 KiB read buffer.
		{"request head over the read buffer", "GET", "/widgets/" + strings.Repeat("x", 5000), "", 431, "Request Header Fields Too Large", "", "headers_too_large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, hdr, b := get(t, tc.method, base+tc.path, tc.body, nil)
			if status != tc.status || b.StatusCode != tc.status {
				t.Fatalf("status %d, body statusCode %d; want %d", status, b.StatusCode, tc.status)
			}
			if got, _ := json.Marshal(b.Message); string(got) != mustJSON(tc.message) {
				t.Errorf("message %s, want %s", got, mustJSON(tc.message))
			}
			if b.Code != tc.code {
				t.Errorf("code %q, want %q", b.Code, tc.code)
			}
			if hdr.Get("Retry-After") != tc.retryAfter {
				t.Errorf("Retry-After %q, want %q", hdr.Get("Retry-After"), tc.retryAfter)
			}
			if b.Error != http.StatusText(tc.status) {
				t.Errorf("error %q, want %q", b.Error, http.StatusText(tc.status))
			}
			if b.RequestID == "" || hdr.Get("X-Request-Id") != b.RequestID {
				t.Errorf("requestId %q not echoed in X-Request-Id %q", b.RequestID, hdr.Get("X-Request-Id"))
			}
		})
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestRequestIDTrustIsOptIn(t *testing.T) {
	_, edge, _, _ := newServer(t, httpserver.Options{})
	_, owner, _, _ := newServer(t, httpserver.Options{TrustRequestID: true})
	in := map[string]string{"X-Request-Id": "req_from_gateway"}

	if _, hdr, _ := get(t, "GET", edge+"/widgets/1", "", in); hdr.Get("X-Request-Id") == "req_from_gateway" {
		t.Error("an untrusting server kept the client's request id")
	}
	if _, hdr, _ := get(t, "GET", owner+"/widgets/1", "", in); hdr.Get("X-Request-Id") != "req_from_gateway" {
		t.Errorf("a trusting server replaced the request id with %q", hdr.Get("X-Request-Id"))
	}
	res, err := http.Get(owner + "/widgets/rid")
	if err != nil {
		t.Fatal(err)
	}
	inCtx, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(inCtx) == "" || string(inCtx) != res.Header.Get("X-Request-Id") {
		t.Errorf("the request's context carries request id %q, the answer %q", inCtx, res.Header.Get("X-Request-Id"))
	}
	bad := map[string]string{"X-Request-Id": "id with spaces"}
	if _, hdr, _ := get(t, "GET", owner+"/widgets/1", "", bad); hdr.Get("X-Request-Id") == bad["X-Request-Id"] {
		t.Error("a malformed request id was kept")
	}
}

func TestReadinessReflectsChecksAndShutdown(t *testing.T) {
	var healthy atomic.Bool
	check := httpserver.Check{Name: "postgres", Fn: func(context.Context) error {
		if healthy.Load() {
			return nil
		}
		return errors.New("connection refused")
	}}
	_, base, cancel, done := newServer(t, httpserver.Options{Ready: []httpserver.Check{check}, DrainDelay: 2 * time.Second})

	if status, _, b := get(t, "GET", base+"/readyz", "", nil); status != 503 || b.Message != "postgres is not ready" {
		t.Fatalf("readyz with a failing check: %d %v", status, b.Message)
	}
	healthy.Store(true)
	if status, _, _ := get(t, "GET", base+"/readyz", "", nil); status != 200 {
		t.Fatalf("readyz with passing checks: %d", status)
	}
	if status, _, _ := get(t, "GET", base+"/healthz", "", nil); status != 200 {
		t.Fatalf("healthz: %d", status)
	}

	cancel()
	for deadline := time.Now().Add(time.Second); ; { // the drain delay keeps the server listening
		status, _, b := get(t, "GET", base+"/readyz", "", nil)
		if status == 503 && b.Message == "shutting down" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz while draining: %d %v", status, b.Message)
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve returned %v after a clean shutdown", err)
	}
	done <- nil // let the cleanup's receive finish
}

func TestShutdownLetsInFlightRequestsFinish(t *testing.T) {
	s := httpserver.New(httpserver.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), BodyLimit: 1024})
	started, release := make(chan struct{}), make(chan struct{})
	s.App.Get("/slow", func(c *fiber.Ctx) error {
		close(started)
		<-release
		return c.SendString("finished")
	})
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, 5*time.Second) }()

	got := make(chan string, 1)
	go func() {
		res, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		got <- string(b)
	}()
	<-started
	cancel()
	for { // shutdown has begun once the listener refuses new connections
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			break
		}
		_ = conn.Close()
	}
	close(release)
	if body := <-got; body != "finished" {
		t.Fatalf("in-flight request got %q, want finished", body)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestTooManyRequestsRoundsRetryAfterUp(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "1", 1500 * time.Millisecond: "2", 10 * time.Second: "10"} {
		e := httpserver.TooManyRequests("slow down", d)
		if e.Status != http.StatusTooManyRequests || e.Headers[fiber.HeaderRetryAfter] != want || e.Message != "slow down" {
			t.Errorf("TooManyRequests(%v) = %+v, want 429 with Retry-After %s", d, e, want)
		}
	}
}

func TestInputProblemsCarryTheirPathsAndCodes(t *testing.T) {
	_, base, _, _ := newServer(t, httpserver.Options{})
	for path, want := range map[string][]fault.Problem{
		"/widgets/bad":   {{Path: "a", Code: "invalid", Message: "a must be set"}, {Path: "b", Code: "invalid", Message: "b must be at most 3"}},
		"/widgets/rules": {{Path: "a", Code: "rule_violated", Message: "a: too long"}, {Path: "b", Code: "rule_violated", Message: "b: too short"}},
		"/widgets/taken": nil,
	} {
		_, _, b := get(t, "GET", base+path, "", nil)
		if !slices.Equal(b.Problems, want) {
			t.Errorf("%s: problems %+v, want %+v", path, b.Problems, want)
		}
	}
}

func TestRequestThatIsNotHTTPIsABadRequest(t *testing.T) {
	_, base, _, _ := newServer(t, httpserver.Options{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GARBAGE\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b httpserver.Body
	if err := json.NewDecoder(res.Body).Decode(&b); err != nil || res.StatusCode != 400 || b.Code != "bad_request" || b.Message != "the request is not valid HTTP" {
		t.Fatalf("got %d %+v (%v)", res.StatusCode, b, err)
	}
}

// TestASecondListenerWritesItsOwnErrorsAndNoProbes: a server with WriteError answers failures
// in its own format, and with NoProbes serves no /healthz, /readyz or /metrics.
func TestASecondListenerWritesItsOwnErrorsAndNoProbes(t *testing.T) {
	_, base, _, _ := newServer(t, httpserver.Options{
		NoProbes: true,
		Metrics:  http.NotFoundHandler(),
		WriteError: func(c *fiber.Ctx, e *httpserver.Error) error {
			return c.Status(e.Status).SendString(fmt.Sprintf("<p>%d %s</p>", e.Status, e.Message))
		},
	})
	for path, want := range map[string]string{
		"/widgets/missing": "<p>404 widget not found</p>",
		"/widgets/boom":    "<p>500 internal error; quote the requestId when reporting it</p>",
		"/healthz":         "<p>404 no route for this method and path</p>",
		"/readyz":          "<p>404 no route for this method and path</p>",
		"/metrics":         "<p>404 no route for this method and path</p>",
	} {
		res, err := http.Get(base + path) //nolint:noctx // a test's plain request
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(body) != want {
			t.Errorf("%s: %q, want %q", path, body, want)
		}
	}
}
