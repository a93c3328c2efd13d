package checkouttest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	catalogcontracts "github.com/podiumhq/podium/services/catalog/contracts"
)

// Catalog is an HTTP double of the catalog service speaking its internal contract
// (services/catalog/contracts): it verifies checkout's identity token and scopes events by the
// token's organizer, as the real one does, and fails the test when it serves a document the
// contract refuses.
type Catalog struct {
	URL      string
	Calls    atomic.Int64
	mu       sync.Mutex
	events   map[string]map[string]any
	broken   map[string]bool // ids of documents that break the contract on purpose
	verifier *identity.Verifier
	t        testing.TB
	// LastRequestID is the X-Request-Id of the last call.
	LastRequestID atomic.Value
}

// NewCatalog starts the double until the test ends.
func NewCatalog(t testing.TB, v *identity.Verifier) *Catalog {
	c := &Catalog{events: map[string]map[string]any{}, broken: map[string]bool{}, verifier: v, t: t}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/events/{id}", func(w http.ResponseWriter, r *http.Request) {
		c.serve(w, r, func() (map[string]any, string) {
			return c.events[r.PathValue("id")], "event " + r.PathValue("id") + " not found"
		})
	})
	mux.HandleFunc("GET /internal/categories/{id}/event", func(w http.ResponseWriter, r *http.Request) {
		c.serve(w, r, func() (map[string]any, string) {
			for _, ev := range c.events {
				for _, cat := range ev["categories"].([]any) {
					if cat.(map[string]any)["id"] == r.PathValue("id") {
						return ev, ""
					}
				}
			}
			return nil, "category " + r.PathValue("id") + " not found"
		})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// Put stores (or replaces) an event document.
func (c *Catalog) Put(ev map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events[ev["id"].(string)] = ev
}

// PutBroken stores a document the catalog's contract refuses, for a test of checkout facing a
// catalog that breaks it; every other document served is checked against the contract.
func (c *Catalog) PutBroken(ev map[string]any) {
	c.Put(ev)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.broken[ev["id"].(string)] = true
}

func (c *Catalog) serve(w http.ResponseWriter, r *http.Request, find func() (map[string]any, string)) {
	c.Calls.Add(1)
	c.LastRequestID.Store(r.Header.Get("X-Request-Id"))
	p, ok := principal(w, r, c.verifier)
	if !ok {
		return
	}
	c.mu.Lock()
	ev, missing := find()
	var raw []byte
	var broken bool
	if ev != nil {
		raw, _ = json.Marshal(ev)
		broken = c.broken[ev["id"].(string)]
	}
	c.mu.Unlock()
	if ev == nil || p.OrganizerID != ev["organizerId"] {
		if missing == "" {
			missing = "event not found"
		}
		writeError(w, http.StatusNotFound, missing)
		return
	}
	if op, ok := catalogAPI.Match(r.Method, r.URL.Path); !ok {
		c.t.Errorf("checkout called %s %s, which the catalog's contract does not have", r.Method, r.URL.Path)
	} else if err := op.CheckAnswer(http.StatusOK, raw); err != nil && !broken {
		c.t.Errorf("the catalog double serves what the catalog's contract does not give: %v", err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(raw)
}

// catalogAPI is the catalog's internal contract.
var catalogAPI = contracttest.MustParse(catalogcontracts.Internal)

// principal verifies checkout's identity token as the peers' internal routes do: only
// checkout calls them, and always for an organizer.
func principal(w http.ResponseWriter, r *http.Request, v *identity.Verifier) (identity.Principal, bool) {
	tok := r.Header.Get(identity.Header)
	if tok == "" {
		writeError(w, http.StatusUnauthorized, "this service is reached through the gateway only")
		return identity.Principal{}, false
	}
	p, err := v.Verify(tok)
	switch {
	case err != nil:
		writeError(w, http.StatusUnauthorized, "the internal identity token is invalid or expired")
		return identity.Principal{}, false
	case p.Issuer != identity.Checkout:
		writeError(w, http.StatusForbidden, "this route does not accept calls from "+p.Issuer)
		return identity.Principal{}, false
	case p.OrganizerID == "":
		writeError(w, http.StatusForbidden, "this route needs an identity that names an organizer")
		return identity.Principal{}, false
	}
	return p.Principal, true
}

func writeError(w http.ResponseWriter, status int, message any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"statusCode": status, "message": message, "error": http.StatusText(status)})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
