package checkouttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stripeMock is the stripe-mock process shared by a test binary (see Main).
var stripeMock struct {
	once sync.Once
	url  string
	cmd  *exec.Cmd
	err  error
}

// Main runs a package's tests and stops the shared stripe-mock afterwards; call it from
// TestMain: func TestMain(m *testing.M) { os.Exit(checkouttest.Main(m)) }.
func Main(m *testing.M) int {
	code := m.Run()
	if stripeMock.cmd != nil && stripeMock.cmd.Process != nil {
		_ = stripeMock.cmd.Process.Kill()
		_ = stripeMock.cmd.Wait()
	}
	return code
}

// StripeMockURL starts Stripe's stripe-mock once per test binary (from PATH, or the
// repository's bin/tools) and returns its base URL.
func StripeMockURL(t testing.TB) string {
	t.Helper()
	stripeMock.once.Do(func() { stripeMock.url, stripeMock.err = startStripeMock() })
	if stripeMock.err != nil {
		t.Fatalf("checkouttest: %v", stripeMock.err)
	}
	return stripeMock.url
}

func startStripeMock() (string, error) {
	bin, err := exec.LookPath("stripe-mock")
	if err != nil {
		_, file, _, _ := runtime.Caller(0)
		bin = filepath.Join(filepath.Dir(file), "../../../../bin/tools/stripe-mock")
		if _, err := os.Stat(bin); err != nil {
			return "", errors.New("stripe-mock is neither on PATH nor in bin/tools (make tools installs it)")
		}
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	cmd := exec.CommandContext(context.Background(), bin, "-http-port", strconv.Itoa(port), "-https-port", "0") //nolint:gosec // the installed stripe-mock, found on PATH or in bin/tools
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start stripe-mock: %w", err)
	}
	stripeMock.cmd = cmd
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for range 500 {
		if c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", addr); err == nil {
			_ = c.Close()
			return "http://" + addr, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "", errors.New("stripe-mock did not listen within 10s")
}

// Stripe is a counting reverse proxy in front of stripe-mock: it counts every request that
// reaches Stripe, by method and path, and can play a Stripe outage.
type Stripe struct {
	URL  string
	Down atomic.Bool
	mu   sync.Mutex
	hits map[string]int
	keys map[string]int
	last map[string]url.Values
}

// NewStripe starts a proxy to the shared stripe-mock until the test ends.
func NewStripe(t testing.TB) *Stripe {
	target, err := url.Parse(StripeMockURL(t))
	if err != nil {
		t.Fatal(err)
	}
	s := &Stripe{hits: map[string]int{}, keys: map[string]int{}, last: map[string]url.Values{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.last[r.Method+" "+r.URL.Path] = form
		if k := r.Header.Get("Idempotency-Key"); k != "" {
			s.keys[k]++
		}
		s.mu.Unlock()
		if s.Down.Load() {
			http.Error(w, `{"error":{"type":"api_error","message":"down for the test"}}`, http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Hits returns how many requests reached method and path ("POST /v1/checkout/sessions").
func (s *Stripe) Hits(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[route]
}

// Last returns the form parameters of the last request on route.
func (s *Stripe) Last(route string) url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last[route]
}

// IdempotencyKeys returns the idempotency keys seen and how often each was sent.
func (s *Stripe) IdempotencyKeys() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.keys))
	for k, v := range s.keys {
		out[k] = v
	}
	return out
}

// Routes Stripe is called on.
const (
	RouteSessions = "POST /v1/checkout/sessions"
	RouteRefunds  = "POST /v1/refunds"
)
