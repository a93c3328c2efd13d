package e2e

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// tenant is an organizer of a test's own with a secret key holding every scope and a
// publishable key for site, whose visitors come from an address of the tenant's own.
type tenant struct {
	org         string
	secret      stack.Key
	publishable stack.Key
	visitorIP   string
}

func newTenant(t *testing.T) tenant {
	t.Helper()
	org := newOrganizer(t)
	return tenant{
		org:         org,
		secret:      newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes}),
		publishable: newKey(t, org, stack.KeySpec{Type: "publishable", Origins: []string{site}}),
		visitorIP:   newVisitorIP(),
	}
}

var visitors atomic.Int32

// newVisitorIP returns a client address no other test uses (the suite's gateways trust
// X-Forwarded-For from 127.0.0.1), so each test has its own per-address limits.
func newVisitorIP() string {
	n := visitors.Add(1)
	return fmt.Sprintf("198.18.%d.%d", n/250, n%250+1)
}

func (tn tenant) organizer(method, path string, body any) req {
	return req{method, gw("/organizer" + path), secret(tn.secret.Key), body}
}

func (tn tenant) browser(method, path string, body any) req {
	h := browser(tn.publishable.Key, site)
	h["X-Forwarded-For"] = tn.visitorIP // the suite's gateways trust 127.0.0.1 as a proxy
	return req{method, gw("/browser" + path), h, body}
}

// surface is one of the tenant's two ways in: the organizer API with its secret key or the
// browser API with its publishable key.
type surface struct {
	name string
	call func(method, path string, body any) req
}

// op names the surface's operation, as the document does ("browser" + "GetEvent").
func (s surface) op(name string) string { return s.name + name }

func (tn tenant) surfaces() []surface {
	return []surface{{"organizer", tn.organizer}, {"browser", tn.browser}}
}

// importEvent imports doc for the tenant through the catalog's operator CLI.
func (tn tenant) importEvent(t *testing.T, doc map[string]any) stack.Event {
	t.Helper()
	ev, err := sys.ImportEventDoc(t.Context(), tn.org, doc)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// catalogEvent is an import file of a one-day event in Madrid with a public category ("open"), a
// private one ("invite") and an unpublished one ("later").
func catalogEvent(externalID, status string, private bool) map[string]any {
	return map[string]any{
		"externalId": externalID, "name": "Event " + externalID, "status": status, "private": private,
		"startDate": "2027-06-12", "endDate": "2027-06-12", "timezone": "Europe/Madrid", "currency": "EUR",
		"venue": map[string]any{"name": "Pabellón Municipal", "city": "València", "countryCode": "ES"},
		"categories": []any{
			map[string]any{"key": "open", "name": "Open", "basePrice": 5000, "quota": 10},
			map[string]any{"key": "invite", "name": "Invitational", "basePrice": 9000, "private": true},
			map[string]any{"key": "later", "name": "Later", "basePrice": 7000, "published": false},
		},
	}
}

// eventPage is the part of an events search answer the tests read.
type eventPage struct {
	Data []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"data"`
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

func (p eventPage) ids() map[string]bool {
	out := map[string]bool{}
	for _, e := range p.Data {
		out[e.ID] = true
	}
	return out
}

// pricingCards is the part of a pricing cards answer the tests read.
type pricingCards struct {
	Cards []card `json:"cards"`
}

// decodeOK checks res has status and a body the document allows for operation op, and decodes
// it into out.
func decodeOK(t *testing.T, res response, status int, op string, out any) {
	t.Helper()
	if res.status != status {
		t.Fatalf("%s: status %d, want %d: %s", op, res.status, status, res.body)
	}
	conforms(t, op, res)
	if out != nil {
		if err := json.Unmarshal(res.body, out); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
}
