package checkouttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
)

// Catalog is an HTTP double of the catalog service speaking its internal contract
// (docs/contracts/catalog-internal.md): it verifies checkout's identity token and scopes events
// by the token's organizer, as the real one does.
type Catalog struct {
	URL      string
	Calls    atomic.Int64
	mu       sync.Mutex
	events   map[string]map[string]any
	verifier *identity.Verifier
	// LastRequestID is the X-Request-Id of the last call.
	LastRequestID atomic.Value
}

// NewCatalog starts the double until the test ends.
func NewCatalog(t testing.TB, v *identity.Verifier) *Catalog {
	c := &Catalog{events: map[string]map[string]any{}, verifier: v}
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
	if ev != nil {
		raw, _ = json.Marshal(ev)
	}
	c.mu.Unlock()
	if ev == nil || p.OrganizerID != ev["organizerId"] {
		if missing == "" {
			missing = "event not found"
		}
		writeError(w, http.StatusNotFound, missing)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(raw)
}

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

// Order is a hold the registration double made.
type Order struct {
	ID     string
	HoldID string
	// Organizer is the organizer checkout held the places for.
	Organizer string
	Status    string
	Body      map[string]any
	places    map[string]int
}

// Registration is an HTTP double of registration's hold API
// (docs/contracts/registration-holds.md) with a quota per category and counters of what
// checkout asked.
type Registration struct {
	URL string
	// Holds counts orders created; HoldCalls every hold request; Confirms and Releases their calls.
	Holds, HoldCalls, Confirms, Releases atomic.Int64
	mu                                   sync.Mutex
	orders                               map[string]*Order // by order id
	byHold                               map[string]*Order
	quota                                map[string]int // places left per category; absent: unlimited
	refuse                               *refusal
	verifier                             *identity.Verifier
}

// NewRegistration starts the double until the test ends.
func NewRegistration(t testing.TB, v *identity.Verifier) *Registration {
	g := &Registration{orders: map[string]*Order{}, byHold: map[string]*Order{}, quota: map[string]int{}, verifier: v}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /internal/holds", g.hold)
	mux.HandleFunc("POST /internal/holds/{id}/confirm", g.confirm)
	mux.HandleFunc("POST /internal/holds/{id}/release", g.release)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	g.URL = srv.URL
	return g
}

// SetQuota sets the places left in a category.
func (g *Registration) SetQuota(categoryID string, places int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.quota[categoryID] = places
}

type refusal struct {
	status     int
	message    any
	retryAfter string
}

// RefuseNext makes the next hold answer status with the standard error body's message.
func (g *Registration) RefuseNext(status int, message any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refuse = &refusal{status: status, message: message}
}

// LimitNext makes the next hold answer 429 with message and Retry-After seconds, as
// registration refuses a hold over its caps on unpaid places.
func (g *Registration) LimitNext(message string, retryAfter int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refuse = &refusal{status: http.StatusTooManyRequests, message: message, retryAfter: strconv.Itoa(retryAfter)}
}

// Order returns the order with id.
func (g *Registration) Order(id string) (Order, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	o, ok := g.orders[id]
	if !ok {
		return Order{}, false
	}
	return *o, true
}

// LastOrder returns the order created last.
func (g *Registration) LastOrder() (Order, bool) {
	return g.Order(fmt.Sprintf("ord_%d", g.Holds.Load()))
}

func (g *Registration) hold(w http.ResponseWriter, r *http.Request) {
	g.HoldCalls.Add(1)
	p, ok := principal(w, r, g.verifier)
	if !ok {
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "body must be JSON")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	holdID, _ := body["holdId"].(string)
	if o, ok := g.byHold[holdID]; ok {
		writeJSON(w, http.StatusOK, map[string]any{"orderId": o.ID, "status": o.Status, "expiresAt": body["expiresAt"]})
		return
	}
	if g.refuse != nil {
		r := g.refuse
		g.refuse = nil
		if r.retryAfter != "" {
			w.Header().Set("Retry-After", r.retryAfter)
		}
		writeError(w, r.status, r.message)
		return
	}
	places := map[string]int{} // one place per registration, as the hold contract says
	for _, reg := range body["registrations"].([]any) {
		places[reg.(map[string]any)["categoryId"].(string)]++
	}
	for cat, n := range places {
		if left, limited := g.quota[cat]; limited && left < n {
			writeError(w, http.StatusConflict, "category "+cat+" has no places left")
			return
		}
	}
	for cat, n := range places {
		if _, limited := g.quota[cat]; limited {
			g.quota[cat] -= n
		}
	}
	o := &Order{ID: fmt.Sprintf("ord_%d", g.Holds.Add(1)), HoldID: holdID, Organizer: p.OrganizerID, Status: "PENDING", Body: body, places: places}
	g.orders[o.ID], g.byHold[holdID] = o, o
	writeJSON(w, http.StatusCreated, map[string]any{"orderId": o.ID, "status": o.Status, "expiresAt": body["expiresAt"],
		"registrations": []any{map[string]any{"registrationId": "reg_" + o.ID[4:], "categoryId": body["registrations"].([]any)[0].(map[string]any)["categoryId"]}}})
}

func (g *Registration) confirm(w http.ResponseWriter, r *http.Request) {
	g.Confirms.Add(1)
	g.transition(w, r, func(o *Order) (int, any) {
		if o.Status == "PENDING" {
			o.Status = "COMPLETED"
		}
		return http.StatusOK, map[string]any{"orderId": o.ID, "status": o.Status}
	})
}

func (g *Registration) release(w http.ResponseWriter, r *http.Request) {
	g.Releases.Add(1)
	g.transition(w, r, func(o *Order) (int, any) {
		switch o.Status {
		case "COMPLETED":
			return http.StatusConflict, map[string]any{"statusCode": 409, "message": "order is completed", "error": "Conflict"}
		case "PENDING":
			o.Status = "CANCELLED"
			for cat, n := range o.places {
				if _, limited := g.quota[cat]; limited {
					g.quota[cat] += n
				}
			}
		}
		return http.StatusOK, map[string]any{"orderId": o.ID, "status": o.Status}
	})
}

func (g *Registration) transition(w http.ResponseWriter, r *http.Request, fn func(*Order) (int, any)) {
	p, ok := principal(w, r, g.verifier)
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	o, ok := g.orders[r.PathValue("id")]
	if !ok || o.Organizer != p.OrganizerID {
		writeError(w, http.StatusNotFound, "order not found")
		return
	}
	status, body := fn(o)
	writeJSON(w, status, body)
}
