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
	// Holds counts orders created; HoldCalls every hold request; Releases its calls.
	Holds, HoldCalls, Releases atomic.Int64
	mu                         sync.Mutex
	orders                     map[string]*Order // by order id
	byHold                     map[string]*Order
	released                   map[string]bool // hold ids released by id
	quota                      map[string]int  // places left per category; absent: unlimited
	refuse                     *refusal
	loseNext                   bool
	verifier                   *identity.Verifier
}

// NewRegistration starts the double until the test ends.
func NewRegistration(t testing.TB, v *identity.Verifier) *Registration {
	g := &Registration{orders: map[string]*Order{}, byHold: map[string]*Order{}, released: map[string]bool{}, quota: map[string]int{}, verifier: v}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /internal/holds", g.hold)
	mux.HandleFunc("POST /internal/holds/release", g.release)
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

// LoseNextAnswer makes the next hold hold its places and answer only once its caller gave up
// (closed the connection at its deadline): the answer is lost.
func (g *Registration) LoseNextAnswer() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.loseNext = true
}

// Held returns the places held in a category by PENDING orders.
func (g *Registration) Held(categoryID string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, o := range g.orders {
		if o.Status == "PENDING" {
			n += o.places[categoryID]
		}
	}
	return n
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
	if g.released[holdID] {
		writeError(w, http.StatusConflict, "hold "+holdID+" was released; hold again with a new holdId")
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
	if g.loseNext {
		g.loseNext = false
		g.mu.Unlock()
		<-r.Context().Done() // the caller gave up
		g.mu.Lock()
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"orderId": o.ID, "status": o.Status, "expiresAt": body["expiresAt"],
		"registrations": []any{map[string]any{"registrationId": "reg_" + o.ID[4:], "categoryId": body["registrations"].([]any)[0].(map[string]any)["categoryId"]}}})
}

// release releases a hold by its hold id, as registration does: the order made for it, if
// any, is cancelled and its places given back, and the id is remembered so a hold with it is
// refused afterwards.
func (g *Registration) release(w http.ResponseWriter, r *http.Request) {
	g.Releases.Add(1)
	p, ok := principal(w, r, g.verifier)
	if !ok {
		return
	}
	var body struct {
		HoldID string `json:"holdId"`
		Reason string `json:"reason"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.HoldID == "" || body.Reason == "" {
		writeError(w, http.StatusBadRequest, "holdId and reason are required")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.released[body.HoldID] = true
	o, ok := g.byHold[body.HoldID]
	if !ok || o.Organizer != p.OrganizerID {
		writeJSON(w, http.StatusOK, map[string]any{"holdId": body.HoldID, "orderId": nil, "status": nil})
		return
	}
	switch o.Status {
	case "COMPLETED":
		writeError(w, http.StatusConflict, "order "+o.ID+" is COMPLETED and cannot be released")
		return
	case "PENDING":
		o.Status = "CANCELLED"
		for cat, n := range o.places {
			if _, limited := g.quota[cat]; limited {
				g.quota[cat] += n
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"holdId": body.HoldID, "orderId": o.ID, "status": o.Status})
}
