package webhookstest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	authcontracts "github.com/podiumhq/podium/services/auth/contracts"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/auth"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
)

// Auth is an HTTP double of auth's contacts route: it accepts only the webhooks service's
// tokens for the organizer of the path, and answers what the contract allows.
type Auth struct {
	URL string
	mu  sync.Mutex
	// contacts per organizer; calls counts the requests, failing makes it answer 503.
	contacts map[string][]app.Contact
	calls    int
	failing  bool
}

// SetContacts sets the owners and admins of org.
func (a *Auth) SetContacts(org string, contacts ...app.Contact) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.contacts[org] = contacts
}

// Fail makes the double answer 503 (true) or serve again (false).
func (a *Auth) Fail(failing bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failing = failing
}

// Calls returns how many requests the double got.
func (a *Auth) Calls() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls
}

// StartAuth runs the double until the test ends; verifier checks tokens for auth.
func StartAuth(t testing.TB, verifier *identity.Verifier) *Auth {
	t.Helper()
	op := contracttest.Load(t, authcontracts.Internal).Operation(t, "listContacts")
	a := &Auth{contacts: map[string][]app.Contact{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.calls++
		contacts, known := a.contacts[organizerOf(r.URL.Path)]
		failing := a.failing
		a.mu.Unlock()
		v, err := verifier.Verify(r.Header.Get(identity.Header))
		switch {
		case err != nil:
			http.Error(w, `{"statusCode":401}`, http.StatusUnauthorized)
		case v.Issuer != identity.Webhooks || v.KeyType != identity.Service:
			http.Error(w, `{"statusCode":403}`, http.StatusForbidden)
		case failing:
			http.Error(w, `{"statusCode":503}`, http.StatusServiceUnavailable)
		case r.Method != http.MethodGet || !known || v.OrganizerID != organizerOf(r.URL.Path):
			http.Error(w, `{"statusCode":404}`, http.StatusNotFound)
		default:
			body, err := op.Response(t, http.StatusOK).Document(auth.ContactsAnswer{Data: contacts})
			if err != nil {
				t.Error(err)
				http.Error(w, "", http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}
	}))
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

// organizerOf reads the organizer of a contacts path.
func organizerOf(path string) string {
	rest, ok := strings.CutPrefix(path, "/internal/v1/organizers/")
	if !ok {
		return ""
	}
	org, tail, _ := strings.Cut(rest, "/")
	if tail != "contacts" {
		return ""
	}
	return org
}
