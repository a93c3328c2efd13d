package api_test

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

var buyerA = identity.Principal{OrganizerID: orgA, KeyID: "key_pk_" + orgA, KeyType: identity.Publishable, Origin: "https://shop.example"}

func join(t *testing.T, env *regtest.Env, email string) (domain.WaitlistEntry, error) {
	t.Helper()
	return env.Service.JoinWaitlist(t.Context(), buyerA, evtA, domain.JoinInput{
		CategoryID: "cat_rx", Email: email, Name: "Buyer " + email, TeamSize: 1, OfferURL: "https://shop.example/waitlist",
	})
}

var offerSecret = regexp.MustCompile(`waitlistOffer=(wlo_[A-Za-z0-9_-]+)`)

// offerSent returns the secret of the newest offer mailed to email.
func offerSent(t *testing.T, env *regtest.Env, email string) string {
	t.Helper()
	var body string
	if err := env.Pool.QueryRow(t.Context(), `SELECT body FROM mail_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1`, email).Scan(&body); err != nil {
		t.Fatalf("no offer mailed to %s: %v", email, err)
	}
	m := offerSecret.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no offer link in %q", body)
	}
	return m[1]
}

func entryStatus(t *testing.T, env *regtest.Env, email string) string {
	t.Helper()
	var s string
	if err := env.Pool.QueryRow(t.Context(), `SELECT status FROM waitlist_entries WHERE email = $1 ORDER BY seq DESC LIMIT 1`, email).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func offerHold(secret string, name string) map[string]any {
	b := holdBody("wl-"+name, time.Now().Add(time.Hour), holdReg(name))
	b["waitlistOffer"] = secret
	return b
}

// TestWaitlistOfferLapsesToTheNextAndAnOfferBuys walks the waitlist's life: a join refused
// while places are left, joins on a sold-out category, a freed place offered to the first in
// line as a held place, the offer lapsing to the next, and the next's offer bought through a
// hold that takes the offer's place rather than a new one.
func TestWaitlistOfferLapsesToTheNextAndAnOfferBuys(t *testing.T) {
	env := start(t, regtest.Options{})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(2)
	env.Catalog.Put(e)
	first := create(t, env, createBody("One"))
	if _, err := join(t, env, "early@example.com"); !errors.Is(err, fault.ErrConflict) || codeOf(err) != domain.CodeNotSoldOut {
		t.Fatalf("join with a place left: %v, want %s", err, domain.CodeNotSoldOut)
	}
	create(t, env, createBody("Two"))
	a, err := join(t, env, "ann@example.com")
	if err != nil || a.Position != 1 || a.Status != domain.WaitlistWaiting {
		t.Fatalf("join: %+v, %v", a, err)
	}
	b, _ := join(t, env, "bob@example.com")
	again, _ := join(t, env, " Ann@Example.com ")
	if b.Position != 2 || again.ID != a.ID {
		t.Fatalf("bob at %d, ann again %s (first %s)", b.Position, again.ID, a.ID)
	}
	if n, _ := env.Service.OfferFreed(t.Context()); n != 0 {
		t.Fatalf("%d offers made with no place free", n)
	}

	r := env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+ticketOf(first, 0), nil, env.Secret(t, orgA))
	if r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	if n, err := env.Service.OfferFreed(t.Context()); n != 1 || err != nil {
		t.Fatalf("offers %d, %v; want 1", n, err)
	}
	if c, h := places(t, env, "cat_rx"); c+h != 2 || h != 1 {
		t.Fatalf("ledger %d confirmed + %d held, want the offer's place held", c, h)
	}
	annOffer := offerSent(t, env, "ann@example.com")
	r = env.Do(t, "POST", "/internal/holds", holdBody("plain", time.Now().Add(time.Hour), holdReg("Plain")), env.Browser(t, orgA))
	wantCode(t, r, domain.CodeQuotaExhausted)

	env.Clock.Advance(domain.DefaultOfferTTL + time.Second)
	if n, err := env.Service.LapseOffers(t.Context()); n != 1 || err != nil {
		t.Fatalf("lapsed %d, %v; want 1", n, err)
	}
	if n, _ := env.Service.OfferFreed(t.Context()); n != 1 || entryStatus(t, env, "ann@example.com") != "LAPSED" {
		t.Fatalf("next offered %d; ann is %s", n, entryStatus(t, env, "ann@example.com"))
	}
	r = env.Do(t, "POST", "/internal/holds", offerHold(annOffer, "Ann"), env.Browser(t, orgA))
	wantCode(t, r, domain.CodeOfferNotValid)

	bobOffer := offerSent(t, env, "bob@example.com")
	r = env.Do(t, "POST", "/internal/holds", offerHold(bobOffer, "Bob"), env.Browser(t, orgA))
	if r.Status != 201 {
		t.Fatalf("hold with the offer: %d %s", r.Status, r.Raw)
	}
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 1 || entryStatus(t, env, "bob@example.com") != "ACCEPTED" {
		t.Fatalf("ledger %d + %d, bob %s: want the offer's place taken by the hold", c, h, entryStatus(t, env, "bob@example.com"))
	}
	r = env.Do(t, "POST", "/internal/holds", offerHold(bobOffer, "Bob2"), env.Browser(t, orgA))
	wantCode(t, r, domain.CodeOfferNotValid)
	pay(t, env, r0(t, env, "wl-Bob"), "pi_bob", 6500)
	if c, h := places(t, env, "cat_rx"); c != 2 || h != 0 {
		t.Fatalf("after payment %d + %d, want 2 confirmed", c, h)
	}
	wantOfferedEvents(t, env, 2)
}

// wantOfferedEvents checks the outbox holds n waitlist.offered events, each keyed by its
// entry and without the offer's secret (the store's event test checks them against the schema).
func wantOfferedEvents(t *testing.T, env *regtest.Env, n int) {
	t.Helper()
	rows, err := env.Pool.Query(t.Context(), `SELECT key, headers->>'ce_type', payload FROM outbox WHERE topic = $1 ORDER BY id`, domain.WaitlistTopic)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	produced := 0
	for rows.Next() {
		var key, typ string
		var payload []byte
		if err := rows.Scan(&key, &typ, &payload); err != nil {
			t.Fatal(err)
		}
		var e domain.WaitlistOfferedEvent
		if err := json.Unmarshal(payload, &e); err != nil || e.Object.ID != key || e.Object.Status != "OFFERED" || strings.Contains(string(payload), "wlo_") {
			t.Fatalf("offered event keyed %s: %s (%v)", key, payload, err)
		}
		if typ != domain.EventWaitlistOffered {
			t.Fatalf("type %s", typ)
		}
		produced++
	}
	if produced != n {
		t.Fatalf("%d offered events, want %d", produced, n)
	}
}

// r0 is the order made for a hold id.
func r0(t *testing.T, env *regtest.Env, holdID string) string {
	t.Helper()
	var id string
	if err := env.Pool.QueryRow(t.Context(), `SELECT id FROM orders WHERE hold_id = $1`, holdID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func codeOf(err error) string {
	if f, ok := fault.Of(err); ok {
		return f.Code
	}
	return ""
}

// TestWaitlistRoutes joins through the browser route and lists, offers by hand and closes
// through the organizer's, each answer checked against the document; another organizer sees
// none of it.
func TestWaitlistRoutes(t *testing.T) {
	env := start(t, regtest.Options{})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = intp(1)
	env.Catalog.Put(e)
	reg := create(t, env, createBody("Only"))
	browser, secret, other := env.Browser(t, orgA), env.Secret(t, orgA), env.Secret(t, orgB)
	body := func(email string) map[string]any {
		return map[string]any{"categoryId": "cat_rx", "email": email, "name": "Ana Buyer", "teamSize": 1, "offerUrl": "https://shop.example/waitlist"}
	}
	r := env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/waitlist", body("ana@example.com"), browser)
	env.Valid(t, "browserJoinWaitlist", r)
	if r.Status != 201 || r.Body["position"] != float64(1) {
		t.Fatalf("join: %d %s", r.Status, r.Raw)
	}
	env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/waitlist", body("bob@example.com"), browser)
	bad := body("eve@example.com")
	bad["offerUrl"] = "https://phish.example/offer"
	wantError(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/waitlist", bad, browser), 422, "offerUrl")
	bad = body("eve@example.com")
	bad["teamSize"] = 2
	wantError(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/waitlist", bad, browser), 422, "teamSize")
	wantError(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtB+"/waitlist", body("eve@example.com"), browser), 404)

	r = env.Do(t, "GET", "/external/v1/organizer/categories/cat_rx/waitlist", nil, secret)
	env.Valid(t, "organizerListWaitlist", r)
	data, _ := r.Body["data"].([]any)
	if r.Status != 200 || len(data) != 2 || r.Body["total"] != float64(2) {
		t.Fatalf("list: %d %s", r.Status, r.Raw)
	}
	bob := data[1].(map[string]any)["id"].(string)
	wantError(t, env.Do(t, "GET", "/external/v1/organizer/categories/cat_rx/waitlist", nil, other), 404)
	wantError(t, env.Do(t, "POST", "/external/v1/organizer/waitlist/"+bob+"/offer", nil, other), 404)
	wantCode(t, env.Do(t, "POST", "/external/v1/organizer/waitlist/"+bob+"/offer", nil, secret), domain.CodeQuotaExhausted)

	env.Do(t, "DELETE", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), nil, secret)
	r = env.Do(t, "POST", "/external/v1/organizer/waitlist/"+bob+"/offer", nil, secret)
	env.Valid(t, "organizerOfferWaitlistEntry", r)
	if r.Status != 200 || r.Body["status"] != "OFFERED" || r.Body["offerExpiresAt"] == nil {
		t.Fatalf("offer by hand: %d %s", r.Status, r.Raw)
	}
	offerSent(t, env, "bob@example.com")
	wantCode(t, env.Do(t, "POST", "/external/v1/organizer/waitlist/"+bob+"/offer", nil, secret), domain.CodeNotWaiting)

	wantError(t, env.Do(t, "POST", "/external/v1/organizer/categories/cat_rx/waitlist/close", nil, other), 404)
	r = env.Do(t, "POST", "/external/v1/organizer/categories/cat_rx/waitlist/close", nil, secret)
	env.Valid(t, "organizerCloseWaitlist", r)
	if r.Status != 200 || r.Body["closedEntries"] != float64(1) {
		t.Fatalf("close: %d %s", r.Status, r.Raw)
	}
	wantCode(t, env.Do(t, "POST", "/external/v1/browser/events/"+evtA+"/waitlist", body("carl@example.com"), browser), domain.CodeWaitlistClosed)
}

// TestAQuotaRaisedOffersItsPlaces: places first taken without a quota, then limited to them,
// so buyers wait; the organizer raises the quota in the catalog and the next offer round
// offers the new place to the first in line.
func TestAQuotaRaisedOffersItsPlaces(t *testing.T) {
	env := start(t, regtest.Options{})
	e := regtest.Event(evtA, orgA)
	e.Categories[0].Quota = nil
	env.Catalog.Put(e)
	create(t, env, createBody("Unlimited"))
	e.Categories[0].Quota = intp(1)
	env.Catalog.Put(e)
	if _, err := join(t, env, "ana@example.com"); err != nil {
		t.Fatalf("join: %v", err)
	}
	if n, err := env.Service.OfferFreed(t.Context()); n != 0 || err != nil {
		t.Fatalf("offers %d, %v with no place", n, err)
	}
	e.Categories[0].Quota = intp(2)
	env.Catalog.Put(e)
	if n, err := env.Service.OfferFreed(t.Context()); n != 1 || err != nil {
		t.Fatalf("offers %d, %v after the quota was raised; want 1", n, err)
	}
	offerSent(t, env, "ana@example.com")
	if c, h := places(t, env, "cat_rx"); c != 1 || h != 1 {
		t.Fatalf("ledger %d + %d, want the new place held for the offer", c, h)
	}
}
