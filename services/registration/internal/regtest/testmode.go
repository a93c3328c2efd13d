package regtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/adapters/peers"
)

// TestSecret is the token of a test secret key of org with every registrations scope.
func (e *Env) TestSecret(t testing.TB, org string) string {
	return e.Token(t, identity.Principal{OrganizerID: org, KeyID: "key_test_" + org, KeyType: identity.Secret,
		Scopes: []string{"registrations:read", "registrations:write"}, Test: true})
}

// TestBrowser is the token of a test publishable key of org.
func (e *Env) TestBrowser(t testing.TB, org string) string {
	return e.Token(t, identity.Principal{OrganizerID: org, KeyID: "key_pk_test_" + org, KeyType: identity.Publishable, Origin: "https://shop.example", Test: true})
}

// Console is auth's token for the console of org, as auth calls the console's internal routes.
func (e *Env) Console(t testing.TB, org string) string {
	return e.Issuers.Token(t, identity.Auth, identity.Registration, identity.Principal{OrganizerID: org, KeyID: "ses_" + org, KeyType: identity.Service})
}

// TestDataPeer is an HTTP double of a peer's DELETE /internal/organizers/{organizerId}/test-data
// (checkout's or the webhooks service's): it accepts only registration's identity token for
// its audience naming a test principal of the path's organizer, counts the calls, and answers
// the counts it was given the first time for an organizer and zeros afterwards, as a peer
// that deleted them would; or Status, when set.
type TestDataPeer struct {
	URL string
	mu  sync.Mutex
	// answers are the counts still to delete, per organizer.
	answers map[string]map[string]int64
	calls   int
	status  int
}

// StartTestDataPeer runs a peer double for audience (identity.Checkout, identity.Webhooks)
// whose organizers have counts to delete.
func StartTestDataPeer(t testing.TB, e *Env, audience string, counts map[string]map[string]int64) *TestDataPeer {
	t.Helper()
	p := &TestDataPeer{answers: counts}
	v := e.Issuers.Verifier(audience)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		org, ok := strings.CutPrefix(r.URL.Path, "/internal/organizers/")
		org, ok2 := strings.CutSuffix(org, "/test-data")
		ver, err := v.Verify(r.Header.Get(identity.Header))
		switch {
		case !ok || !ok2 || r.Method != http.MethodDelete:
			http.Error(w, `{"code":"route_not_found"}`, http.StatusNotFound)
			return
		case err != nil || ver.Issuer != identity.Registration || !ver.Test || ver.OrganizerID != org:
			t.Errorf("%s peer: refused token %+v (%v) for %s", audience, ver, err, org)
			http.Error(w, `{"code":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		p.mu.Lock()
		p.calls++
		status, answer := p.status, p.answers[org]
		if status == 0 {
			delete(p.answers, org)
		}
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"statusCode":503,"code":"service_unavailable","message":"down"}`))
			return
		}
		if answer == nil {
			answer = map[string]int64{}
		}
		_ = json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Calls returns how many authorised calls the peer received.
func (p *TestDataPeer) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// Fail makes the peer answer status (0: answer again).
func (p *TestDataPeer) Fail(status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = status
}

// UsePeers makes the service's wipes call checkout and webhooks at these doubles.
func (e *Env) UsePeers(checkout, webhooks *TestDataPeer) {
	signer := e.Issuers.Signer(identity.Registration)
	e.Service.SetTestDataPeers(peers.NewTestData(identity.Checkout, checkout.URL, signer, 5*time.Second),
		peers.NewTestData(identity.Webhooks, webhooks.URL, signer, 5*time.Second))
}
