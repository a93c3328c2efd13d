package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

// StripeCall is one request checkout made to Stripe (stripe-mock), as Stripe received it.
type StripeCall struct {
	Method, Path   string
	IdempotencyKey string
	// TestMode says the call was made with the test-mode key (checkout's STRIPE_TEST_SECRET_KEY).
	TestMode bool
	// Form holds the request's parameters (stripe-go sends them form-encoded).
	Form url.Values
}

// Metadata returns the call's metadata value of key (metadata[key]).
func (c StripeCall) Metadata(key string) string { return c.Form.Get("metadata[" + key + "]") }

// LineItem is one line of a Checkout Session request: its name, unit amount and quantity.
type LineItem struct {
	Name               string
	UnitAmount, Amount int64
	Quantity           int64
}

// LineItems returns the lines of a Checkout Session request in order.
func (c StripeCall) LineItems() []LineItem {
	var out []LineItem
	for i := 0; ; i++ {
		p := "line_items[" + strconv.Itoa(i) + "]"
		unit := c.Form.Get(p + "[price_data][unit_amount]")
		if unit == "" {
			return out
		}
		amount, _ := strconv.ParseInt(unit, 10, 64)
		qty, _ := strconv.ParseInt(c.Form.Get(p+"[quantity]"), 10, 64)
		out = append(out, LineItem{Name: c.Form.Get(p + "[price_data][product_data][name]"), UnitAmount: amount, Quantity: qty, Amount: amount * qty})
	}
}

// AmountTotal adds up the line items of a Checkout Session request (quantity × unit amount).
func (c StripeCall) AmountTotal() int64 {
	var total int64
	for _, l := range c.LineItems() {
		total += l.Amount
	}
	return total
}

// Currency is the ISO code of a Checkout Session request's lines, in upper case.
func (c StripeCall) Currency() string {
	return strings.ToUpper(c.Form.Get("line_items[0][price_data][currency]"))
}

// stripeRecorder is a reverse proxy between checkout and stripe-mock that records every
// request reaching Stripe, so tests can see what Stripe was asked (and how often), keeps
// Stripe's first answer to an idempotency key, failures included, for the key's later requests
// as Stripe does (testkit.StripeIdempotency), and lists the Checkout Sessions tests settled
// (see ListStripeSession) as Stripe would. With a hosted
// checkout stand-in (Options.HostedCheckout) it also serves its pages and sends the buyer of
// each session there.
type stripeRecorder struct {
	srv    *http.Server
	url    string
	mu     sync.Mutex
	calls  []StripeCall
	listed []map[string]any
	// refuse, when set, answers the calls it picks with a Stripe error instead of stripe-mock
	// (Stack.RefuseStripe).
	refuse func(StripeCall) (StripeError, bool)
	// hosted, when set, serves /pay/ and gets each created session's url rewritten to it.
	hosted http.Handler
}

// callKey carries a request's recorded call to the proxy's ModifyResponse.
type callKey struct{}

func startStripeRecorder(target string, hosted http.Handler) (*stripeRecorder, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("stack: Stripe recorder: %w", err)
	}
	r := &stripeRecorder{url: "http://" + ln.Addr().String(), hosted: hosted}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = r.modify
	mux := http.NewServeMux()
	if hosted != nil {
		mux.Handle("/pay/", hosted)
	}
	answer := testkit.StripeIdempotency(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		call, _ := req.Context().Value(callKey{}).(StripeCall)
		r.mu.Lock()
		refuse := r.refuse
		r.mu.Unlock()
		if refuse != nil {
			if e, ok := refuse(call); ok {
				e.write(w)
				return
			}
		}
		proxy.ServeHTTP(w, req)
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		call := StripeCall{Method: req.Method, Path: req.URL.Path, IdempotencyKey: req.Header.Get("Idempotency-Key"), Form: form,
			TestMode: req.Header.Get("Authorization") == "Bearer "+stripeMockTestKey}
		r.mu.Lock()
		r.calls = append(r.calls, call)
		r.mu.Unlock()
		answer.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), callKey{}, call)))
	})
	r.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: mux}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// modify lists the settled sessions and, with the stand-in, sends each created session's buyer
// to its page.
func (r *stripeRecorder) modify(res *http.Response) error {
	if err := r.listSettled(res); err != nil {
		return err
	}
	if r.hosted == nil {
		return nil
	}
	call, _ := res.Request.Context().Value(callKey{}).(StripeCall)
	return rewriteSessionURL(res, r.url, call)
}

// listSettled lists the sessions tests settled in place of stripe-mock's fixture.
func (r *stripeRecorder) listSettled(res *http.Response) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return testkit.ListStripeSessions(res, r.listed)
}

// StripeError is an error answer of Stripe's API: its HTTP status and the error's type, code
// and message ({"error":{"type","code","message"}}).
type StripeError struct {
	Status              int
	Type, Code, Message string
}

func (e StripeError) write(w http.ResponseWriter) {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"type": e.Type, "code": e.Code, "message": e.Message}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_stack_fault")
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}

// RefuseStripe makes Stripe answer the calls of checkout that refuse picks with its error
// instead of stripe-mock's answer (Options.RecordStripe), as Stripe refuses a request; nil
// lets every call through again. The calls are recorded either way; a later call with the
// idempotency key of a refused one gets the same refusal, as from Stripe.
func (s *Stack) RefuseStripe(refuse func(StripeCall) (StripeError, bool)) {
	if s.stripeRecorder == nil {
		return
	}
	s.stripeRecorder.mu.Lock()
	defer s.stripeRecorder.mu.Unlock()
	s.stripeRecorder.refuse = refuse
}

// ListStripeSession makes Stripe's list of Checkout Sessions include one with fields set (id,
// status, payment_status, metadata, ...), as a session Stripe settled whose webhook may never
// have been sent (Options.RecordStripe).
func (s *Stack) ListStripeSession(fields map[string]any) {
	if s.stripeRecorder == nil {
		return
	}
	s.stripeRecorder.mu.Lock()
	defer s.stripeRecorder.mu.Unlock()
	s.stripeRecorder.listed = append(s.stripeRecorder.listed, fields)
}

// startStripeRecorder puts the recorder in front of stripe-mock when asked (Options.RecordStripe
// or Options.HostedCheckout); checkout then talks to the recorder (stripeAPIBase).
func (s *Stack) startStripeRecorder() error {
	if !s.opts.RecordStripe && !s.opts.HostedCheckout {
		return nil
	}
	var hosted http.Handler
	if s.opts.HostedCheckout {
		hosted = s.hostedCheckout()
	}
	r, err := startStripeRecorder(s.StripeURL, hosted)
	if err != nil {
		return err
	}
	s.stripeRecorder = r
	return nil
}

// stripeAPIBase is where checkout sends its Stripe requests: the recorder or stripe-mock.
func (s *Stack) stripeAPIBase() string {
	if s.stripeLinkURL != "" {
		return s.stripeLinkURL
	}
	if s.stripeRecorder != nil {
		return s.stripeRecorder.url
	}
	return s.StripeURL
}

// StripeCalls returns the requests that reached Stripe on method and path ("POST",
// "/v1/checkout/sessions") whose metadata names the organizer (Options.RecordStripe).
func (s *Stack) StripeCalls(method, path, organizerID string) []StripeCall {
	if s.stripeRecorder == nil {
		return nil
	}
	r := s.stripeRecorder
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []StripeCall
	for _, c := range r.calls {
		if c.Method == method && c.Path == path && c.Metadata("organizerId") == organizerID {
			out = append(out, c)
		}
	}
	return out
}

// StripeSession returns the Checkout Session request checkout made for an order
// (Options.RecordStripe), the latest first, so that a test can play the webhook Stripe would
// send about it.
func (s *Stack) StripeSession(orderID string) (StripeCall, bool) {
	if s.stripeRecorder == nil {
		return StripeCall{}, false
	}
	r := s.stripeRecorder
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.calls) - 1; i >= 0; i-- {
		c := r.calls[i]
		if c.Method == "POST" && c.Path == "/v1/checkout/sessions" && c.Metadata("orderId") == orderID {
			return c, true
		}
	}
	return StripeCall{}, false
}
