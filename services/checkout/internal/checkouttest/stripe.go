package checkouttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
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

// stripeMockListening starts the line stripe-mock prints once it listens for HTTP.
const stripeMockListening = "Listening for HTTP at address: "

// startStripeMock starts stripe-mock on a port the system chooses and returns its URL once
// stripe-mock says it listens (killed if it has not within 30 seconds).
func startStripeMock() (string, error) {
	bin, err := exec.LookPath("stripe-mock")
	if err != nil {
		_, file, _, _ := runtime.Caller(0)
		bin = filepath.Join(filepath.Dir(file), "../../../../bin/tools/stripe-mock")
		if _, err := os.Stat(bin); err != nil {
			return "", errors.New("stripe-mock is neither on PATH nor in bin/tools (make tools installs it)")
		}
	}
	// The process serves every test of the binary: no test's context bounds it (Main stops it).
	cmd := exec.CommandContext(context.Background(), bin, "-http-port", "0") //nolint:gosec // the installed stripe-mock, found on PATH or in bin/tools
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start stripe-mock: %w", err)
	}
	stripeMock.cmd = cmd
	tooLong := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	defer tooLong.Stop()
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		addr, ok := strings.CutPrefix(lines.Text(), stripeMockListening)
		if !ok {
			continue
		}
		go func() { _, _ = io.Copy(io.Discard, out) }()
		_, port, err := net.SplitHostPort(addr)
		if err != nil {
			return "", fmt.Errorf("stripe-mock listens at %q: %w", addr, err)
		}
		return "http://127.0.0.1:" + port, nil
	}
	return "", errors.New("stripe-mock stopped or did not listen within 30s")
}

// Stripe is a counting reverse proxy in front of stripe-mock: it counts every request that
// reaches Stripe, by method and path, keeps Stripe's first answer to an idempotency key and
// gives it again to the key's later requests as Stripe does (testkit.StripeIdempotency), can
// play a Stripe outage (of every call, or of refunds only) and Stripe refusing the refunds of a
// payment (RefuseRefunds), answers a Checkout Session list and a session's read with the
// sessions a test settled (see List), and a payment's refunds with those made through it and
// those a test added (AddRefund).
type Stripe struct {
	URL         string
	Down        atomic.Bool
	RefundsDown atomic.Bool
	mu          sync.Mutex
	// refusals answer the refunds of a payment intent with a Stripe error (RefuseRefunds).
	refusals map[string]stripeError
	hits     map[string]int
	keys     map[string]int
	// apiKeys are the secret keys of the last request on each route.
	apiKeys map[string]string
	last    map[string]url.Values
	listed  []map[string]any
	// refunds are the refunds Stripe made, or a test added, by payment intent.
	refunds map[string][]map[string]any
	// onSession, when set, runs once Stripe answered a session's creation, before checkout
	// gets the answer: with the request's parameters and the new session's id.
	onSession func(form url.Values, sessionID string)
	// before holds functions run when a request on their route arrives, before it is answered.
	before map[string]func(form url.Values)
}

// Before makes fn run with a request's parameters when one arrives on route, before it is
// answered (or refused as down): what a test sees while checkout waits for Stripe.
func (s *Stripe) Before(route string, fn func(form url.Values)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.before[route] = fn
}

// OnSessionCreated makes fn run once Stripe opened a session and before checkout reads the
// answer, with the request's parameters and the session's id: what a webhook that overtakes
// the answer sees.
func (s *Stripe) OnSessionCreated(fn func(form url.Values, sessionID string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onSession = fn
}

// stripeError is a Stripe error answer: its HTTP status and error body.
type stripeError struct {
	status int
	body   []byte
}

// RefuseRefunds makes Stripe answer every refund of paymentIntent with status and the error
// of errType and code, as Stripe's API does ({"error":{"type","code","message"}}), until
// AllowRefunds.
func (s *Stripe) RefuseRefunds(paymentIntent string, status int, errType, code string) {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"type": errType, "code": code, "message": "Refused for the test: " + code, "request_log_url": "https://dashboard.stripe.com/test/logs/req_test",
	}})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals[paymentIntent] = stripeError{status: status, body: body}
}

// AllowRefunds lets the refunds of paymentIntent through again.
func (s *Stripe) AllowRefunds(paymentIntent string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.refusals, paymentIntent)
}

// NewStripe starts a proxy to the shared stripe-mock until the test ends.
func NewStripe(t testing.TB) *Stripe {
	target, err := url.Parse(StripeMockURL(t))
	if err != nil {
		t.Fatal(err)
	}
	s := &Stripe{hits: map[string]int{}, keys: map[string]int{}, apiKeys: map[string]string{}, last: map[string]url.Values{}, before: map[string]func(url.Values){},
		refusals: map[string]stripeError{}, refunds: map[string][]map[string]any{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(res *http.Response) error {
		for _, modify := range []func(*http.Response) error{s.sessionCreated, s.listSettled, s.readSettled, s.refundMade, s.listRefunds} {
			if err := modify(res); err != nil {
				return err
			}
		}
		return nil
	}
	answer := testkit.StripeIdempotency(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		form, _ := r.Context().Value(formKey{}).(url.Values)
		s.mu.Lock()
		refused, isRefused := s.refusals[form.Get("payment_intent")]
		isRefused = isRefused && r.Method+" "+r.URL.Path == RouteRefunds
		s.mu.Unlock()
		if s.Down.Load() || (s.RefundsDown.Load() && r.Method+" "+r.URL.Path == RouteRefunds) {
			http.Error(w, `{"error":{"type":"api_error","message":"down for the test"}}`, http.StatusServiceUnavailable)
			return
		}
		if isRefused {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Request-Id", "req_test")
			w.WriteHeader(refused.status)
			_, _ = w.Write(refused.body)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		if r.Method == http.MethodGet {
			form = r.URL.Query()
		}
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.last[r.Method+" "+r.URL.Path] = form
		s.apiKeys[r.Method+" "+r.URL.Path] = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if k := r.Header.Get("Idempotency-Key"); k != "" {
			s.keys[k]++
		}
		before := s.before[r.Method+" "+r.URL.Path]
		s.mu.Unlock()
		if before != nil {
			before(form)
		}
		answer.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), formKey{}, form)))
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

// Last returns the form parameters (a GET's query) of the last request on route.
func (s *Stripe) Last(route string) url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last[route]
}

// LastKey returns the secret key the last request on route was made with.
func (s *Stripe) LastKey(route string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apiKeys[route]
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

// Routes Stripe is called on (a session is read on RouteListSessions + "/" + its id).
const (
	RouteSessions     = "POST /v1/checkout/sessions"
	RouteRefunds      = "POST /v1/refunds"
	RouteListRefunds  = "GET /v1/refunds"
	RouteListSessions = "GET /v1/checkout/sessions"
)

// List makes Stripe's Checkout Session list (which stripe-mock answers with one fixture
// session, open and naming no checkout) include a session with fields set (id, status,
// payment_status, metadata, ...), as a session Stripe settled; a read of the session by its id
// answers those fields too.
func (s *Stripe) List(fields map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listed = append(s.listed, fields)
}

// formKey carries a request's parameters to the proxy's view of its answer.
type formKey struct{}

// sessionCreated runs the OnSessionCreated function on an answer to a session's creation.
func (s *Stripe) sessionCreated(res *http.Response) error {
	s.mu.Lock()
	fn := s.onSession
	s.mu.Unlock()
	if fn == nil || res.Request.Method+" "+res.Request.URL.Path != RouteSessions || res.StatusCode != http.StatusOK {
		return nil
	}
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(answer))
	var session struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(answer, &session)
	form, _ := res.Request.Context().Value(formKey{}).(url.Values)
	fn(form, session.ID)
	return nil
}

// Unlist takes every session List added out of Stripe's list.
func (s *Stripe) Unlist() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listed = nil
}

// listSettled lists the sessions List added in place of stripe-mock's fixture: those created
// at or after the request's created[gte], as Stripe does (a session without "created" always).
func (s *Stripe) listSettled(res *http.Response) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	since, _ := strconv.ParseInt(res.Request.URL.Query().Get("created[gte]"), 10, 64)
	var listed []map[string]any
	for _, fields := range s.listed {
		if created, ok := fields["created"].(int64); !ok || created >= since {
			listed = append(listed, fields)
		}
	}
	return testkit.ListStripeSessions(res, listed)
}
