package checkouttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/identity"
	registrationcontracts "github.com/podiumhq/podium/services/registration/contracts"
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

// Registration is an HTTP double of registration's hold API with a quota per category and
// counters of what checkout asked. Every request it gets and every answer it gives is checked
// against registration's internal contract (services/registration/contracts).
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
	t                          testing.TB
}

// registrationAPI is registration's internal contract.
var registrationAPI = contracttest.MustParse(registrationcontracts.Internal)

// NewRegistration starts the double until the test ends.
func NewRegistration(t testing.TB, v *identity.Verifier) *Registration {
	g := &Registration{orders: map[string]*Order{}, byHold: map[string]*Order{}, released: map[string]bool{}, quota: map[string]int{}, verifier: v, t: t}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /internal/holds", g.hold)
	mux.HandleFunc("POST /internal/holds/release", g.release)
	srv := httptest.NewServer(g.checked(mux))
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
		writeJSON(w, http.StatusOK, o.answer())
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
	writeJSON(w, http.StatusCreated, o.answer())
}

// answer is the hold's answer: the order with one registration per one held, and a ticket
// tkt_<order>_<registration>_<athlete> per athlete.
func (o *Order) answer() map[string]any {
	var regs []any
	for i, reg := range o.Body["registrations"].([]any) {
		tickets := []any{}
		athletes, _ := reg.(map[string]any)["athletes"].([]any)
		for j := range athletes {
			tickets = append(tickets, fmt.Sprintf("tkt_%s_%d_%d", o.ID[4:], i, j))
		}
		regs = append(regs, map[string]any{"registrationId": fmt.Sprintf("reg_%s_%d", o.ID[4:], i),
			"categoryId": reg.(map[string]any)["categoryId"], "ticketIds": tickets})
	}
	return map[string]any{"orderId": o.ID, "status": o.Status, "expiresAt": o.Body["expiresAt"], "registrations": regs}
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
		writeJSON(w, http.StatusOK, map[string]any{"holdId": body.HoldID, "orderId": nil, "status": nil, "reason": body.Reason})
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
	writeJSON(w, http.StatusOK, map[string]any{"holdId": body.HoldID, "orderId": o.ID, "status": o.Status, "reason": body.Reason})
}

// checked checks each request checkout sends and each answer the double gives against
// registration's contract: a double that answered what registration cannot, or accepted what
// it would refuse, would let checkout's tests pass against a registration that is not there.
func (g *Registration) checked(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op, ok := registrationAPI.Match(r.Method, r.URL.Path)
		if !ok {
			g.t.Errorf("checkout called %s %s, which registration's contract does not have", r.Method, r.URL.Path)
			writeError(w, http.StatusNotFound, "no such route")
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeError(w, http.StatusBadRequest, "unreadable body")
			return
		}
		if err := op.CheckRequest(body); err != nil {
			g.t.Errorf("checkout sent a request registration's contract refuses: %v", err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if r.Context().Err() != nil {
			return // checkout gave up: no one reads the answer
		}
		if err := op.CheckAnswer(rec.Code, rec.Body.Bytes()); err != nil {
			g.t.Errorf("the registration double answered what registration's contract does not give: %v", err)
		}
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}
