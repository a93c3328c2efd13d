package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// shop is a tenant selling its own event on its website; its keys and its visitors' address
// give each test its own per-key and per-IP checkout limits.
type shop struct {
	tenant
	event stack.Event
	cat   string
}

// Prices of the shop's event: a pair costs 9000 plus a 5 % service fee.
const (
	pairPrice = 9000
	pairTotal = 9450
)

// newShop creates an organizer, its keys and an event with the given status: one category of
// pairs with unlimited places, a required T-shirt size per athlete, a required liability
// waiver, a 100 % promocode FREE100, a 10 % promocode ONCE10 of one use and a 5 % service fee
// per registration.
func newShop(t *testing.T, status string) *shop {
	t.Helper()
	s := &shop{tenant: newTenant(t)}
	ev, err := sys.ImportEventDoc(t.Context(), s.org, shopEvent(status, nil))
	if err != nil {
		t.Fatal(err)
	}
	s.event, s.cat = ev, ev.Category("pairs")
	return s
}

// shopEvent is the import document of the shop's event; quota limits its category's places.
func shopEvent(status string, quota *int) map[string]any {
	pairs := map[string]any{"key": "pairs", "name": "Pairs", "teamSize": map[string]any{"min": 2, "max": 2}, "basePrice": pairPrice}
	if quota != nil {
		pairs["quota"] = *quota
	}
	return map[string]any{
		"externalId": "e2e-shop", "name": "Shop Throwdown", "status": status,
		"startDate": "2027-06-12", "endDate": "2027-06-13", "timezone": "Europe/Madrid", "currency": "EUR",
		"categories": []any{pairs},
		"formFields": []any{map[string]any{"key": "tshirt", "label": "T-shirt size", "type": "select", "required": true,
			"options": []any{"S", "M", "L"}, "appliesTo": "ATHLETE"}},
		"waivers": []any{map[string]any{"key": "liability", "title": "Liability", "text": "I take part at my own risk."}},
		"promocodes": []any{map[string]any{"key": "free", "code": "FREE100", "percent": 100},
			map[string]any{"key": "once", "code": "ONCE10", "percent": 10, "maxUses": 1}},
		"fees": []any{map[string]any{"key": "service", "name": "Service fee", "percent": 5}},
	}
}

// limitPlaces imports the shop's event again with a quota of n places for its category.
func (s *shop) limitPlaces(t *testing.T, n int) {
	t.Helper()
	if _, err := sys.ImportEventDoc(t.Context(), s.org, shopEvent(s.event.Status, &n)); err != nil {
		t.Fatal(err)
	}
}

// purchase is a valid checkout session body for a pair in the shop's category.
func (s *shop) purchase(team string) map[string]any {
	w, tshirt := s.event.Waivers[0], s.event.FormFields[0].ID
	athlete := func(name string) map[string]any {
		return map[string]any{"fullname": name + " " + team, "idNumber": "X1234567", "email": strings.ToLower(name) + "@example.com",
			"phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-04-01"}
	}
	return map[string]any{
		"eventId": s.event.ID, "categoryId": s.cat, "teamName": team,
		"athletes": []any{athlete("Ana"), athlete("Bea")},
		// Values of per-athlete fields name their athlete (registration's athleteIndex).
		"customFields": []any{
			map[string]any{"fieldId": tshirt, "value": "M", "athleteIndex": 0},
			map[string]any{"fieldId": tshirt, "value": "L", "athleteIndex": 1},
		},
		"waiversAccepted": map[string]any{w.ID: true},
		"legalSignature": map[string]any{
			"signerName": "Ana Atleta", "signerIdNumber": "X1234567", "authorityAccepted": true,
			"waiverVersions": []any{map[string]any{"waiverId": w.ID, "version": w.Version}},
			"strokes":        []any{[]any{map[string]any{"x": 0.1, "y": 0.2, "t": 0}, map[string]any{"x": 0.4, "y": 0.5, "t": 120}}},
		},
		"termsAccepted": true, "purchaserEmail": "ana@example.com", "purchaserName": "Ana Atleta",
		"successUrl": site + "/thanks", "cancelUrl": site + "/cart",
	}
}

// post sends a checkout request ("summary" or "session") as the site's visitor would.
func (s *shop) post(t *testing.T, path string, body any) response {
	t.Helper()
	return s.postWith(t, s.publishable.Key, s.visitorIP, path, body)
}

func (s *shop) postWith(t *testing.T, key, ip, path string, body any) response {
	t.Helper()
	h := browser(key, site)
	h["X-Forwarded-For"] = ip
	return do(t, req{"POST", gw("/browser/checkout/registration/" + path), h, body})
}

// sessionAnswer is the checkout-session answer.
type sessionAnswer struct {
	SessionID  string `json:"sessionId"`
	SessionURL string `json:"sessionUrl"`
	OrderID    string `json:"orderId"`
}

// open creates a checkout session and returns the answer.
func (s *shop) open(t *testing.T, body map[string]any) sessionAnswer {
	t.Helper()
	return wantSession(t, s.post(t, "session", body))
}

func wantSession(t *testing.T, res response) sessionAnswer {
	t.Helper()
	var a sessionAnswer
	if res.status != 201 || json.Unmarshal(res.body, &a) != nil || a.SessionID == "" || a.SessionURL == "" || !strings.HasPrefix(a.OrderID, "ord_") {
		t.Fatalf("session: %d %s", res.status, res.body)
	}
	return a
}

// ticketRow is a row of the organizer's registration search.
type ticketRow struct {
	Ticket struct {
		TicketID string `json:"ticketId"`
		Status   string `json:"status"`
	} `json:"ticket"`
	Order struct {
		OrderID string `json:"orderId"`
		Status  string `json:"status"`
		Amount  int64  `json:"amount"`
	} `json:"order"`
}

// tickets searches the shop's event's tickets with the organizer's secret key; filter adds to
// the body.
func (s *shop) tickets(t *testing.T, filter map[string]any) (rows []ticketRow, total int) {
	t.Helper()
	body := map[string]any{"eventId": s.event.ID, "limit": 100}
	for k, v := range filter {
		body[k] = v
	}
	res := do(t, req{"POST", gw("/organizer/registrations/search"), secret(s.secret.Key), body})
	var page struct {
		Data  []ticketRow `json:"data"`
		Total int         `json:"total"`
	}
	if res.status != 201 || json.Unmarshal(res.body, &page) != nil {
		t.Fatalf("registration search: %d %s", res.status, res.body)
	}
	return page.Data, page.Total
}

// places reads the registered and held counts of the shop's pricing card.
func (s *shop) places(t *testing.T) (registered, held int) {
	t.Helper()
	res := do(t, req{"GET", gw("/organizer/events/" + s.event.ID + "/pricing-cards"), secret(s.secret.Key), nil})
	var p struct {
		Cards []struct {
			CategoryID      string `json:"categoryId"`
			RegisteredCount int    `json:"registeredCount"`
			HeldCount       int    `json:"heldCount"`
		} `json:"cards"`
	}
	if res.status != 200 || json.Unmarshal(res.body, &p) != nil {
		t.Fatalf("pricing cards: %d %s", res.status, res.body)
	}
	for _, c := range p.Cards {
		if c.CategoryID == s.cat {
			return c.RegisteredCount, c.HeldCount
		}
	}
	t.Fatalf("no pricing card for %s: %s", s.cat, res.body)
	return 0, 0
}

// wantPlaces waits until the pricing card shows registered and held places (the catalog
// follows registration's places events).
func (s *shop) wantPlaces(t *testing.T, registered, held int) {
	t.Helper()
	testkit.Eventually(t, eventTravel, func() string {
		if r, h := s.places(t); r != registered || h != held {
			return fmt.Sprintf("pricing card: %d registered, %d held; want %d and %d", r, h, registered, held)
		}
		return ""
	})
}

// wantOrder waits until the order's two tickets are in the search with the ticket status and
// the order status given.
func (s *shop) wantOrder(t *testing.T, orderID, ticketStatus, orderStatus string) {
	t.Helper()
	testkit.Eventually(t, eventTravel, func() string {
		rows, _ := s.tickets(t, map[string]any{"ticketStatus": "ALL"})
		n := 0
		for _, r := range rows {
			if r.Order.OrderID != orderID {
				continue
			}
			if r.Ticket.Status != ticketStatus || r.Order.Status != orderStatus {
				return fmt.Sprintf("ticket %s is %s on a %s order; want %s on %s", r.Ticket.TicketID, r.Ticket.Status, r.Order.Status, ticketStatus, orderStatus)
			}
			n++
		}
		if n != 2 {
			return fmt.Sprintf("%d tickets of order %s, want 2", n, orderID)
		}
		return ""
	})
}

// eventTravel bounds how long a test waits for what travels through Kafka.
const eventTravel = 30 * time.Second
