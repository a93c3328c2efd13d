package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

// TestInternalEventShape checks the values of GET /internal/events/{eventId} for the demo
// event; Do checks its shape against the internal contract.
func TestInternalEventShape(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	created := env.Import(t, orgA, catalogtest.Demo(t, "summer-throwdown")).Body
	id := created["id"].(string)
	// The early-bird tier (6500) is active until 00:00 on 1 February 2027 in Madrid.
	env.Clock.Set(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	r := env.Do(t, http.MethodGet, "/internal/events/"+id, nil, env.Checkout(t, orgA))
	if r.Status != http.StatusOK || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("internal event: %d %v %s", r.Status, r.Header, r.Raw)
	}
	e := r.Body
	if e["organizerId"] != orgA || e["version"] != 1.0 || e["previewToken"] != created["previewToken"] || e["status"] != "PUBLISHED" {
		t.Fatalf("event %v", e)
	}
	cats := e["categories"].([]any)
	if len(cats) != 3 || cats[2].(map[string]any)["private"] != true || cats[0].(map[string]any)["activePrice"] != 6500.0 ||
		cats[0].(map[string]any)["ageMax"] != nil || cats[0].(map[string]any)["gender"] != "MALE" {
		t.Fatalf("categories %v", cats)
	}
	sups := e["supplements"].([]any)
	if len(sups) != 3 || sups[2].(map[string]any)["active"] != false || len(sups[0].(map[string]any)["options"].([]any)) != 4 ||
		sups[0].(map[string]any)["price"] != nil || sups[1].(map[string]any)["price"] != 800.0 || len(sups[1].(map[string]any)["options"].([]any)) != 0 {
		t.Fatalf("supplements (inactive ones listed) %v", sups)
	}
	fields := e["formFields"].([]any)
	if _, has := fields[1].(map[string]any)["options"]; has {
		t.Fatalf("a text field has options: %v", fields[1])
	}
	codes := e["promocodes"].([]any)
	if c := codes[0].(map[string]any); c["code"] != "EARLY10" || c["type"] != "PERCENT" || c["basisPoints"] != 1000.0 || c["amount"] != nil ||
		c["validUntil"] != "2027-02-28T23:00:00Z" || c["validFrom"] != nil || c["maxUses"] != 100.0 {
		t.Fatalf("promocode %v", c)
	}
	if c := codes[1].(map[string]any); c["type"] != "FIXED" || c["amount"] != 1000.0 || c["basisPoints"] != nil ||
		!slices.Equal(toStrings(c["categoryIds"]), []string{cats[1].(map[string]any)["id"].(string)}) {
		t.Fatalf("promocode %v", c)
	}
	if f := e["fees"].([]any)[0].(map[string]any); f["basisPoints"] != 250.0 || f["per"] != "REGISTRATION" {
		t.Fatalf("fee %v", f)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(r.Raw, &raw)
	if string(raw["startDate"]) != `"2027-06-12"` {
		t.Fatalf("startDate %s", raw["startDate"])
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestInternalEventScoping(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	id := env.Import(t, orgA, catalogtest.Demo(t, "winter-draft")).Body["id"].(string)
	path := "/internal/events/" + id
	// Whatever its status, for the organizer's own principals as checkout and registration
	// send them.
	secretA := identity.Principal{OrganizerID: orgA, KeyID: "key_secret", KeyType: identity.Secret, Scopes: []string{"registrations:write"}}
	for name, h := range map[string]map[string]string{
		"checkout":                 env.Checkout(t, orgA),
		"registration, secret":     env.Peer(t, identity.Registration, secretA),
		"registration, browser":    env.Peer(t, identity.Registration, identity.Principal{OrganizerID: orgA, KeyID: "k", KeyType: identity.Publishable}),
		"service for an organizer": env.Peer(t, identity.Checkout, identity.Principal{OrganizerID: orgA, KeyID: "x", KeyType: identity.Service}),
	} {
		if r := env.Do(t, http.MethodGet, path, nil, h); r.Status != http.StatusOK || r.Body["status"] != "DRAFT" {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	wantError(t, env.Do(t, http.MethodGet, path, nil, env.Checkout(t, orgB)), http.StatusNotFound, "event "+id+" not found")
	wantError(t, env.Do(t, http.MethodGet, path, nil, env.Peer(t, identity.Registration, identity.Principal{OrganizerID: orgB, KeyID: "k", KeyType: identity.Secret})),
		http.StatusNotFound, nil)
	wantError(t, env.Do(t, http.MethodGet, "/internal/events/evt_missing", nil, env.Checkout(t, orgA)), http.StatusNotFound, "event evt_missing not found")
	wantError(t, env.Do(t, http.MethodGet, path, nil, nil), http.StatusUnauthorized, nil)
}

// TestInternalRoutesAcceptOnlyCheckoutAndRegistration sends the internal routes tokens they
// must refuse: the gateway's (it never calls them), tokens for another service, and a caller's
// token that names no organizer, which would otherwise read any organizer's events.
func TestInternalRoutesAcceptOnlyCheckoutAndRegistration(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	created := env.Import(t, orgA, catalogtest.Demo(t, "summer-throwdown")).Body
	id := created["id"].(string)
	cat := created["categories"].([]any)[0].(map[string]any)["id"].(string)
	pub := identity.Principal{OrganizerID: orgA, KeyID: "key_pub", KeyType: identity.Publishable}
	for _, path := range []string{"/internal/events/" + id, "/internal/categories/" + cat + "/event"} {
		for _, c := range []struct {
			token  string
			status int
			msg    string
		}{
			{env.Token(t, pub), http.StatusForbidden, "this route does not accept calls from gateway"},
			{env.Issuers.Token(t, identity.Checkout, identity.Registration, pub), http.StatusUnauthorized, "the internal identity token is invalid or expired"},
			{env.Issuers.Token(t, identity.Checkout, identity.Catalog, identity.Principal{KeyID: "checkout", KeyType: identity.Service}),
				http.StatusForbidden, "this route needs an identity that names an organizer"},
		} {
			wantError(t, env.Do(t, http.MethodGet, path, nil, map[string]string{identity.Header: c.token}), c.status, c.msg)
		}
		for _, caller := range []string{identity.Checkout, identity.Registration} {
			if r := env.Do(t, http.MethodGet, path, nil, env.Peer(t, caller, pub)); r.Status != http.StatusOK {
				t.Fatalf("%s on %s: %d %s", caller, path, r.Status, r.Raw)
			}
		}
	}
	// The external routes take the gateway's calls only.
	r := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id, nil, env.Peer(t, identity.Checkout, pub))
	wantError(t, r, http.StatusForbidden, "this route does not accept calls from checkout")
}

// TestInternalEventOfCategory checks GET /internal/categories/{categoryId}/event (checkout's
// summary names a category only): the same document as the event's route, for any category of
// the event (private ones too), scoped the same way.
func TestInternalEventOfCategory(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	id := env.Import(t, orgA, catalogtest.Demo(t, "summer-throwdown")).Body["id"].(string)
	event := env.Do(t, http.MethodGet, "/internal/events/"+id, nil, env.Checkout(t, orgA))
	cats := event.Body["categories"].([]any)
	if event.Status != http.StatusOK || len(cats) != 3 {
		t.Fatalf("internal event: %d %s", event.Status, event.Raw)
	}
	for _, c := range cats {
		cat := c.(map[string]any)["id"].(string)
		for name, h := range map[string]map[string]string{"checkout": env.Checkout(t, orgA), "registration": env.Peer(t, identity.Registration, identity.Principal{OrganizerID: orgA, KeyID: "k", KeyType: identity.Secret})} {
			r := env.Do(t, http.MethodGet, "/internal/categories/"+cat+"/event", nil, h)
			if r.Status != http.StatusOK || string(r.Raw) != string(event.Raw) || r.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%s, category %s: %d %v %s\nwant %s", name, cat, r.Status, r.Header, r.Raw, event.Raw)
			}
		}
	}
	cat := cats[0].(map[string]any)["id"].(string)
	path := "/internal/categories/" + cat + "/event"
	wantError(t, env.Do(t, http.MethodGet, path, nil, env.Checkout(t, orgB)), http.StatusNotFound, "category "+cat+" not found")
	wantError(t, env.Do(t, http.MethodGet, "/internal/categories/cat_missing/event", nil, env.Checkout(t, orgA)), http.StatusNotFound, "category cat_missing not found")
	wantError(t, env.Do(t, http.MethodGet, path, nil, nil), http.StatusUnauthorized, nil)
}
