package authtest

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	webhookscontracts "github.com/podiumhq/podium/services/webhooks/contracts"
)

// WebhooksAPI is the webhooks service's internal contract (the organizer API's webhook-endpoint
// routes under /internal/v1, for an auth-signed token): the double serves it, and the
// console's client is checked against it.
var WebhooksAPI = contracttest.MustParse(webhookscontracts.Internal)

// Webhooks is a double of the webhooks service's internal API, on a loopback listener: it
// keeps endpoints and deliveries in memory, per organizer, and fails the test for any request
// or answer the contract refuses and any token that is not auth's for an organizer's member.
// SetMode makes it fail or hang, as a webhooks service that is down or slow.
type Webhooks struct {
	URL      string
	t        testing.TB
	clock    *testkit.Clock
	verifier *identity.Verifier
	mode     atomic.Int32
	hung     chan struct{}

	mu         sync.Mutex
	next       int
	endpoints  []*HookEndpoint
	deliveries map[string][]*HookDelivery // by endpoint id, oldest first
	calls      []WebhooksCall
}

// The double's modes.
const (
	WebhooksUp int32 = iota
	// WebhooksFailing answers every request 503.
	WebhooksFailing
	// WebhooksHanging answers nothing until the caller gives up.
	WebhooksHanging
)

// WebhooksCall is a request the double was sent: for whom, by its token, and whether in test
// mode.
type WebhooksCall struct {
	Method, Path, OrganizerID, KeyID string
	Test                             bool
}

// TestScope is where the double keeps an organizer's test endpoints: apart from its live ones,
// as if of another organizer (pass it to AddEndpoint for a test endpoint).
func TestScope(organizerID string) string { return organizerID + "/test" }

// HookEndpoint is an endpoint the double keeps, in the contract's shape.
type HookEndpoint struct {
	OrganizerID    string     `json:"-"`
	ID             string     `json:"id"`
	URL            string     `json:"url"`
	EventTypes     []string   `json:"eventTypes"`
	Description    string     `json:"description"`
	Status         string     `json:"status"`
	DisabledReason *string    `json:"disabledReason"`
	DisabledAt     *time.Time `json:"disabledAt"`
	FailingSince   *time.Time `json:"failingSince"`
	Livemode       bool       `json:"livemode"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      time.Time  `json:"updatedAt"`
	Secrets        []string   `json:"-"`
}

// HookDelivery is a delivery the double keeps, in the contract's shape.
type HookDelivery struct {
	ID             string        `json:"id"`
	EndpointID     string        `json:"endpointId"`
	MessageID      string        `json:"messageId"`
	Type           string        `json:"type"`
	Status         string        `json:"status"`
	Attempts       int           `json:"attempts"`
	LastStatusCode *int          `json:"lastStatusCode"`
	LastLatencyMs  *int          `json:"lastLatencyMs"`
	LastError      *string       `json:"lastError"`
	NextAttemptAt  *time.Time    `json:"nextAttemptAt"`
	CreatedAt      time.Time     `json:"createdAt"`
	FinishedAt     *time.Time    `json:"finishedAt"`
	AttemptLog     []HookAttempt `json:"-"`
}

// HookAttempt is one attempt of a delivery.
type HookAttempt struct {
	N          int       `json:"n"`
	StartedAt  time.Time `json:"startedAt"`
	StatusCode *int      `json:"statusCode"`
	LatencyMs  int       `json:"latencyMs"`
	Error      *string   `json:"error"`
}

// startWebhooks serves the double until the test ends.
func startWebhooks(t testing.TB, issuers interface {
	Verifier(audience string) *identity.Verifier
}, clock *testkit.Clock) *Webhooks {
	w := &Webhooks{t: t, clock: clock, verifier: issuers.Verifier(identity.Webhooks), deliveries: map[string][]*HookDelivery{}, hung: make(chan struct{}, 64)}
	srv := httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(srv.Close)
	w.URL = srv.URL
	return w
}

// SetMode makes the double answer (WebhooksUp), fail or hang.
func (w *Webhooks) SetMode(mode int32) { w.mode.Store(mode) }

// Hung receives once for each request the double, hanging, holds.
func (w *Webhooks) Hung() <-chan struct{} { return w.hung }

// Calls returns the requests the double was sent.
func (w *Webhooks) Calls() []WebhooksCall {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.calls)
}

// AddEndpoint stores an enabled endpoint of the organizer (a test one for TestScope), as if
// created through its API, and returns it.
func (w *Webhooks) AddEndpoint(organizerID, url string, eventTypes ...string) *HookEndpoint {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.addEndpoint(organizerID, url, eventTypes, "")
}

// Disable disables the endpoint for reason (gone, failing, organizer), failing since the
// given time (nil: not failing).
func (w *Webhooks) Disable(endpointID, reason string, failingSince *time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.endpoint("", endpointID)
	now := w.clock.Now()
	e.Status, e.DisabledReason, e.DisabledAt, e.FailingSince = "disabled", &reason, &now, failingSince
}

// AddDelivery stores a delivery of the endpoint with the given attempts, its last one's
// outcome summed up on it, and returns it.
func (w *Webhooks) AddDelivery(endpointID, typ, status string, attempts ...HookAttempt) *HookDelivery {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.addDelivery(endpointID, typ)
	d.Status, d.Attempts, d.AttemptLog = status, len(attempts), attempts
	if n := len(attempts); n > 0 {
		last := attempts[n-1]
		latency := last.LatencyMs
		d.LastStatusCode, d.LastLatencyMs, d.LastError = last.StatusCode, &latency, last.Error
	}
	if status != "pending" {
		now := w.clock.Now()
		d.NextAttemptAt, d.FinishedAt = nil, &now
	}
	return d
}

// Endpoint returns a copy of the endpoint with id, of any organizer.
func (w *Webhooks) Endpoint(id string) (HookEndpoint, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.endpoint("", id); e != nil {
		return *e, true
	}
	return HookEndpoint{}, false
}

// Deliveries returns copies of the endpoint's deliveries, oldest first.
func (w *Webhooks) Deliveries(endpointID string) []HookDelivery {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []HookDelivery
	for _, d := range w.deliveries[endpointID] {
		out = append(out, *d)
	}
	return out
}

func (w *Webhooks) id(prefix string) string {
	w.next++
	return prefix + "_test" + strconv.Itoa(w.next)
}

func (w *Webhooks) addEndpoint(organizerID, url string, eventTypes []string, description string) *HookEndpoint {
	now := w.clock.Now()
	e := &HookEndpoint{
		OrganizerID: organizerID, ID: w.id("we"), URL: url, EventTypes: eventTypes, Description: description,
		Status: "enabled", Livemode: !strings.HasSuffix(organizerID, TestScope("")), CreatedAt: now, UpdatedAt: now, Secrets: []string{newSecret(w.t)},
	}
	w.endpoints = append(w.endpoints, e)
	return e
}

func (w *Webhooks) addDelivery(endpointID, typ string) *HookDelivery {
	now := w.clock.Now()
	d := &HookDelivery{ID: w.id("wd"), EndpointID: endpointID, MessageID: w.id("msg"), Type: typ, Status: "pending", NextAttemptAt: &now, CreatedAt: now}
	w.deliveries[endpointID] = append(w.deliveries[endpointID], d)
	return d
}

// endpoint returns the organizer's endpoint with id (any organizer's when organizerID is
// empty), or nil.
func (w *Webhooks) endpoint(organizerID, id string) *HookEndpoint {
	for _, e := range w.endpoints {
		if e.ID == id && (organizerID == "" || e.OrganizerID == organizerID) {
			return e
		}
	}
	return nil
}

func newSecret(t testing.TB) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// serve checks the request's token and body, answers it as the webhooks service would and
// checks the answer against the contract.
func (w *Webhooks) serve(rw http.ResponseWriter, r *http.Request) {
	switch w.mode.Load() {
	case WebhooksFailing:
		writeJSON(rw, http.StatusServiceUnavailable, errorBody(http.StatusServiceUnavailable, "the database is unavailable"))
		return
	case WebhooksHanging:
		select {
		case w.hung <- struct{}{}:
		default:
		}
		<-r.Context().Done()
		return
	}
	who, ok := w.authenticate(rw, r)
	if !ok {
		return
	}
	op, ok := WebhooksAPI.Match(r.Method, r.URL.Path)
	if !ok {
		w.t.Errorf("webhooks double: %s %s is no operation of the contract", r.Method, r.URL.Path)
		writeJSON(rw, http.StatusNotFound, errorBody(http.StatusNotFound, "route not found"))
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.t.Errorf("webhooks double: read %s %s: %v", r.Method, r.URL.Path, err)
		return
	}
	if err := op.CheckRequest(body); err != nil {
		writeJSON(rw, http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{err.Error()}))
		return
	}
	w.mu.Lock()
	w.calls = append(w.calls, WebhooksCall{Method: r.Method, Path: r.URL.Path, OrganizerID: who.OrganizerID, KeyID: who.KeyID, Test: who.Test})
	scope := who.OrganizerID
	if who.Test {
		scope = TestScope(scope)
	}
	status, answer := w.answer(op.ID, scope, r, body)
	w.mu.Unlock()
	raw, err := json.Marshal(answer)
	if err != nil {
		w.t.Errorf("webhooks double: %v", err)
		return
	}
	if err := op.CheckAnswer(status, raw); err != nil {
		w.t.Errorf("webhooks double: %v", err)
	}
	writeRaw(rw, status, raw)
}

// authenticate accepts auth's tokens for the webhooks service of a service principal that
// names an organizer, a console member and the webhooks:write scope.
func (w *Webhooks) authenticate(rw http.ResponseWriter, r *http.Request) (identity.Verified, bool) {
	v, err := w.verifier.Verify(r.Header.Get(identity.Header))
	switch {
	case err != nil:
		w.t.Errorf("webhooks double: %s %s without a valid token: %v", r.Method, r.URL.Path, err)
		writeJSON(rw, http.StatusUnauthorized, errorBody(http.StatusUnauthorized, "the internal identity token is invalid or expired"))
		return v, false
	case v.Issuer != identity.Auth || v.KeyType != identity.Service || v.OrganizerID == "" ||
		!strings.HasPrefix(v.KeyID, "console:mbr_") || !v.HasScope("webhooks:write"):
		w.t.Errorf("webhooks double: %s %s with a token that is not the console's: %+v", r.Method, r.URL.Path, v)
		writeJSON(rw, http.StatusForbidden, errorBody(http.StatusForbidden, "this route does not accept this caller"))
		return v, false
	}
	return v, true
}

func writeJSON(rw http.ResponseWriter, status int, v any) {
	raw, _ := json.Marshal(v)
	writeRaw(rw, status, raw)
}

func writeRaw(rw http.ResponseWriter, status int, raw []byte) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_, _ = rw.Write(raw)
}

// errorBody is the standard error body (libs/httpserver).
func errorBody(status int, message any) map[string]any {
	code := map[int]string{400: "validation_failed", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 503: "service_unavailable"}[status]
	return map[string]any{"statusCode": status, "error": http.StatusText(status), "code": code, "message": message, "requestId": "req_double"}
}

// notFound answers an endpoint or delivery the organizer does not have.
func notFound(what string) (int, any) {
	return http.StatusNotFound, errorBody(http.StatusNotFound, what+" not found")
}

func init() {
	// The double answers every operation of the contract (webhooks_answers.go).
	for _, op := range WebhooksAPI.Operations() {
		if _, ok := answers[op.ID]; !ok {
			panic(fmt.Sprintf("webhooks double: no answer for %s", op.ID))
		}
	}
}
