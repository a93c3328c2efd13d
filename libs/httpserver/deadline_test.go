package httpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

// pgError stands for a driver's error: it names its SQLSTATE as pgconn.PgError does.
type pgError struct{ code string }

func (e *pgError) Error() string    { return "ERROR: something (SQLSTATE " + e.code + ")" }
func (e *pgError) SQLState() string { return e.code }

// syncBuffer is a log sink the server's goroutines may write while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var errUpstreamDown = &fault.Error{Kind: fault.Conflict, Problems: []string{"upstream is down"}}

func TestRequestsRunOutOfTimeWith503AndRetryAfter(t *testing.T) {
	var logs syncBuffer
	s := httpserver.New(httpserver.Options{
		Log: slog.New(slog.NewJSONHandler(&logs, nil)), BodyLimit: 64, RequestTimeout: 50 * time.Millisecond,
	})
	s.App.Get("/slow", func(c *fiber.Ctx) error {
		if _, ok := c.UserContext().Deadline(); !ok {
			return errors.New("the request's context has no deadline")
		}
		<-c.UserContext().Done() // a query that never answers, cancelled by the deadline
		return fmt.Errorf("query: %w", c.UserContext().Err())
	})
	s.App.Get("/sql/:code", func(c *fiber.Ctx) error {
		return fmt.Errorf("repository: %w", &pgError{code: strings.Clone(c.Params("code"))})
	})
	s.App.Get("/peer-timeout", func(c *fiber.Ctx) error {
		return fmt.Errorf("%w: %w", errUpstreamDown, context.DeadlineExceeded)
	})
	url := serve(t, s)

	for _, path := range []string{"/slow", "/sql/57014", "/sql/55P03", "/peer-timeout"} {
		status, h, b := get(t, http.MethodGet, url+path, "", nil)
		if status != http.StatusServiceUnavailable || h.Get("Retry-After") != httpserver.RetryAfterTimeout ||
			b.StatusCode != 503 || b.Error != "Service Unavailable" || !strings.HasPrefix(b.RequestID, "req_") ||
			b.Message != "the request did not complete in time; retry after the Retry-After seconds" {
			t.Errorf("%s: %d Retry-After %q %+v", path, status, h.Get("Retry-After"), b)
		}
	}
	if status, _, _ := get(t, http.MethodGet, url+"/sql/23505", "", nil); status != http.StatusInternalServerError {
		t.Errorf("a unique violation answered %d, want 500", status)
	}
	if n := strings.Count(logs.String(), `"msg":"request timed out"`); n != 4 {
		t.Errorf("%d timeouts logged, want one per timed-out request:\n%s", n, logs.String())
	}
	if status, _, _ := get(t, http.MethodGet, url+"/healthz", "", nil); status != http.StatusOK {
		t.Errorf("/healthz answered %d", status)
	}
}

func TestNoRequestTimeoutSetsNoDeadline(t *testing.T) {
	s := httpserver.New(httpserver.Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), BodyLimit: 64})
	s.App.Get("/deadline", func(c *fiber.Ctx) error {
		_, ok := c.UserContext().Deadline()
		return c.JSON(fiber.Map{"deadline": ok})
	})
	url := serve(t, s)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url+"/deadline", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct{ Deadline bool }
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || got.Deadline {
		t.Fatalf("deadline set without RequestTimeout (%v)", err)
	}
}

// serve runs s, whose routes are all added, on a listener of its own until the test ends.
func serve(t *testing.T, s *httpserver.Server) string {
	t.Helper()
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
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
	return "http://" + ln.Addr().String()
}
