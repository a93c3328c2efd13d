package authtest

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
)

// Registration is a double of the registration service's internal test-data routes the
// console calls, on a loopback listener: DELETE /internal/organizers/{organizerId}/test-data
// and GET /internal/organizers/{organizerId}/test/mail. It keeps test mail per organizer and
// fails the test for any token that is not auth's, in test mode, for a member of the path's
// organizer.
type Registration struct {
	URL      string
	t        testing.TB
	verifier *identity.Verifier

	mu    sync.Mutex
	mail  map[string][]TestMail // by organizer, oldest first
	calls []RegistrationCall
	// down answers every request 503, as a registration service that fails (SetDown).
	down bool
}

// RegistrationCall is a request the double was sent, for whom by its token.
type RegistrationCall struct {
	Method, Path, OrganizerID, KeyID string
	Test                             bool
}

// TestMail is a kept test mail, in registration's shape.
type TestMail struct {
	ID        string    `json:"id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	OrderID   *string   `json:"orderId"`
	CreatedAt time.Time `json:"createdAt"`
}

func startRegistration(t testing.TB, issuers interface {
	Verifier(audience string) *identity.Verifier
}) *Registration {
	r := &Registration{t: t, verifier: issuers.Verifier(identity.Registration), mail: map[string][]TestMail{}}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// AddMail keeps a test mail of the organizer.
func (r *Registration) AddMail(organizerID string, m TestMail) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mail[organizerID] = append(r.mail[organizerID], m)
}

// SetDown makes the double fail (true) or answer (false).
func (r *Registration) SetDown(down bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = down
}

// Calls returns the requests the double was sent.
func (r *Registration) Calls() []RegistrationCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]RegistrationCall(nil), r.calls...)
}

func (r *Registration) serve(rw http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		writeJSON(rw, http.StatusServiceUnavailable, errorBody(http.StatusServiceUnavailable, "the database is unavailable"))
		return
	}
	rest, ok := strings.CutPrefix(req.URL.Path, "/internal/organizers/")
	orgID, route, _ := strings.Cut(rest, "/")
	if !ok || orgID == "" {
		r.t.Errorf("registration double: %s %s is no route of its", req.Method, req.URL.Path)
		writeJSON(rw, http.StatusNotFound, errorBody(http.StatusNotFound, "route not found"))
		return
	}
	v, err := r.verifier.Verify(req.Header.Get(identity.Header))
	if err != nil || v.Issuer != identity.Auth || v.KeyType != identity.Service || v.OrganizerID != orgID ||
		!strings.HasPrefix(v.KeyID, "console:mbr_") || !v.Test {
		r.t.Errorf("registration double: %s %s with a token that is not the console's in test mode for the organizer: %+v (%v)", req.Method, req.URL.Path, v, err)
		writeJSON(rw, http.StatusForbidden, errorBody(http.StatusForbidden, "this route does not accept this caller"))
		return
	}
	r.calls = append(r.calls, RegistrationCall{Method: req.Method, Path: req.URL.Path, OrganizerID: v.OrganizerID, KeyID: v.KeyID, Test: v.Test})
	switch {
	case req.Method == http.MethodDelete && route == "test-data":
		n := len(r.mail[orgID])
		delete(r.mail, orgID)
		writeJSON(rw, http.StatusOK, map[string]any{"livemode": false, "deleted": map[string]int{
			"orders": 2, "registrations": 3, "tickets": 4, "mail": n, "checkoutSessions": 5, "webhookEndpoints": 6, "webhookDeliveries": 7,
		}})
	case req.Method == http.MethodGet && route == "test/mail":
		r.listMail(rw, req, orgID)
	default:
		r.t.Errorf("registration double: %s %s is no route of its", req.Method, req.URL.Path)
		writeJSON(rw, http.StatusNotFound, errorBody(http.StatusNotFound, "route not found"))
	}
}

func (r *Registration) listMail(rw http.ResponseWriter, req *http.Request, orgID string) {
	limit, err1 := strconv.Atoi(req.URL.Query().Get("limit"))
	offset, err2 := strconv.Atoi(req.URL.Query().Get("offset"))
	if err1 != nil || err2 != nil || limit < 1 || limit > 100 || offset < 0 {
		r.t.Errorf("registration double: paging %q", req.URL.RawQuery)
		writeJSON(rw, http.StatusBadRequest, errorBody(http.StatusBadRequest, []string{"bad paging"}))
		return
	}
	all := r.mail[orgID]
	page := []TestMail{}
	for i := len(all) - 1 - offset; i >= 0 && len(page) < limit; i-- { // newest first
		page = append(page, all[i])
	}
	writeJSON(rw, http.StatusOK, map[string]any{"data": page, "total": len(all), "limit": limit, "offset": offset})
}
