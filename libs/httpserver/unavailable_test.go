package httpserver_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
)

// refusedDial dials an address nobody listens on and returns the error, as a database driver's
// connect error wraps it.
func refusedDial(t *testing.T) error {
	t.Helper()
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	conn, err := (&net.Dialer{}).DialContext(t.Context(), "tcp", addr)
	if err == nil {
		conn.Close()
		t.Fatalf("%s answered after its listener closed", addr)
	}
	return fmt.Errorf("failed to connect to `user=postgres database=podium`: dial error: %w", err)
}

// TestUnreachableDependenciesAnswer503WithRetryAfter: a refused dial, a connection cut
// mid-answer, and a server refusing connections (SQLSTATE 08006, 57P01, 57P03) answer 503 with
// Retry-After and a message that names nothing internal, not 500; an error the service maps
// keeps its own answer, and any other error stays a 500.
func TestUnreachableDependenciesAnswer503WithRetryAfter(t *testing.T) {
	var logs syncBuffer
	s := httpserver.New(httpserver.Options{
		Log: slog.New(slog.NewJSONHandler(&logs, nil)), BodyLimit: 64,
	})
	refused := refusedDial(t)
	failures := map[string]error{
		"/refused":       fmt.Errorf("repository: %w", refused),
		"/cut":           fmt.Errorf("repository: %w", io.ErrUnexpectedEOF),
		"/sql/08006":     fmt.Errorf("repository: %w", &pgError{code: "08006"}),
		"/sql/57P01":     fmt.Errorf("repository: %w", &pgError{code: "57P01"}),
		"/sql/57P03":     fmt.Errorf("repository: %w", &pgError{code: "57P03"}),
		"/mapped":        &fault.Error{Kind: fault.Conflict, Problems: []string{"the peer said no"}, Err: refused},
		"/sql/23505":     fmt.Errorf("repository: %w", &pgError{code: "23505"}),
		"/plain-failure": errors.New("something else broke"),
	}
	s.App.Get("/*", func(c *fiber.Ctx) error { return failures[c.Path()] })
	url := serve(t, s)

	for _, path := range []string{"/refused", "/cut", "/sql/08006", "/sql/57P01", "/sql/57P03"} {
		status, h, b := get(t, http.MethodGet, url+path, "", nil)
		if status != http.StatusServiceUnavailable || h.Get("Retry-After") != httpserver.RetryAfterUnavailable ||
			b.StatusCode != 503 || b.Error != "Service Unavailable" || !strings.HasPrefix(b.RequestID, "req_") ||
			b.Message != "a service this request needs is unavailable; retry after the Retry-After seconds" {
			t.Errorf("%s: %d Retry-After %q %+v", path, status, h.Get("Retry-After"), b)
		}
	}
	if status, _, b := get(t, http.MethodGet, url+"/mapped", "", nil); status != http.StatusConflict || b.Message != "the peer said no" {
		t.Errorf("an error the service maps: %d %+v", status, b)
	}
	for _, path := range []string{"/sql/23505", "/plain-failure"} {
		if status, h, _ := get(t, http.MethodGet, url+path, "", nil); status != 500 || h.Get("Retry-After") != "" {
			t.Errorf("%s: %d Retry-After %q, want a 500 without", path, status, h.Get("Retry-After"))
		}
	}
	if !strings.Contains(logs.String(), "a dependency is unreachable") || !strings.Contains(logs.String(), "connection refused") {
		t.Errorf("the unreachable dependency is not logged with its cause: %s", logs.String())
	}
}
