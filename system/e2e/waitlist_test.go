package e2e

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// waitlistEntry is the part of a waitlist entry the tests read.
type waitlistEntry struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Position *int   `json:"position"`
	Email    string `json:"email"`
}

// join asks to join the waitlist of the shop's category as a visitor from ip would.
func (s *shop) join(t *testing.T, key, ip, email string) response {
	t.Helper()
	h := browser(key, site)
	h["X-Forwarded-For"] = ip
	res := do(t, req{"POST", gw("/browser/events/" + s.event.ID + "/waitlist"), h, map[string]any{
		"categoryId": s.cat, "email": email, "name": "Waiting Buyer", "teamSize": 2, "offerUrl": site + "/waitlist",
	}})
	conforms(t, "browserJoinWaitlist", res)
	return res
}

var offerLink = regexp.MustCompile(`waitlistOffer=(wlo_[A-Za-z0-9_-]+)`)

// offerIn returns the offer's secret in the one offer mailed to addr.
func offerIn(t *testing.T, addr string) string {
	t.Helper()
	m := waitForMail(t, addr)
	got := offerLink.FindStringSubmatch(m.Body)
	if got == nil {
		t.Fatalf("no offer link in the mail to %s: %q", addr, m.Body)
	}
	return got[1]
}

// TestWaitlistThroughTheGateway walks the waitlist as a buyer and an organizer would: a join
// refused while places are left, joins on the sold-out category, a freed place offered by mail
// with the waitlist.offered webhook, the offer lapsing to the next in line when the waitlist's
// clock passes its day, the lapsed link refused, the live one bought through the normal
// checkout, the organizer's list, manual offer and close, a key without the scope refused,
// another organizer's ids answered 404 and a flood of joins from one address 429.
func TestWaitlistThroughTheGateway(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	recv, _ := startReceiver(t, s.secret.Key)
	first := s.open(t, s.purchase("First Pair"))
	s.pay(t, first)
	const ana, bea, cara = "ana.waitlist@example.com", "bea.waitlist@example.com", "cara.waitlist@example.com"
	wantCode(t, s.join(t, s.publishable.Key, newVisitorIP(), ana), 409, "category_not_sold_out")

	s.limitPlaces(t, 1)
	var anaEntry waitlistEntry
	testkit.Eventually(t, eventTravel, func() string { // the catalog's new quota reaches registration
		res := s.join(t, s.publishable.Key, newVisitorIP(), ana)
		if res.status != 201 {
			return string(res.body)
		}
		anaEntry = decode[waitlistEntry](t, res)
		return ""
	})
	beaEntry := decode[waitlistEntry](t, s.join(t, s.publishable.Key, newVisitorIP(), bea))
	if anaEntry.Position == nil || *anaEntry.Position != 1 || beaEntry.Position == nil || *beaEntry.Position != 2 {
		t.Fatalf("positions: ana %v, bea %v", anaEntry.Position, beaEntry.Position)
	}
	other := newTenant(t)
	wantCode(t, s.join(t, other.publishable.Key, newVisitorIP(), "eve@example.com"), 404, "not_found")
	wantCode(t, do(t, other.organizer("GET", "/categories/"+s.cat+"/waitlist", nil)), 404, "not_found")
	res := do(t, s.organizer("GET", "/categories/"+s.cat+"/waitlist", nil))
	conforms(t, "organizerListWaitlist", res)
	if list := decode[struct{ Data []waitlistEntry }](t, res); len(list.Data) != 2 || list.Data[0].Email != ana {
		t.Fatalf("the organizer's list: %s", res.body)
	}

	// The paid pair is cancelled: its place goes to the first in line, by mail and webhook.
	rows, _ := s.tickets(t, nil)
	if res := do(t, s.organizer("DELETE", "/registrations/"+rows[0].Ticket.TicketID, nil)); res.status != 200 {
		t.Fatalf("delete: %d %s", res.status, res.body)
	}
	anaOffer := offerIn(t, ana)
	_, h := waitHook(t, recv, "waitlist.offered", anaEntry.ID)
	if e := object[waitlistEntry](t, h); e.Status != "OFFERED" {
		t.Fatalf("webhook object %+v", e)
	}
	withOffer := func(team, offer string) map[string]any {
		b := s.purchase(team)
		b["waitlistOffer"] = offer
		return b
	}
	wantCode(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", s.purchase("Pushy Pair")), 409, "quota_exhausted")

	// A day passes on the waitlist's clock: ana's offer lapses and bea's comes.
	if err := sys.AdvanceWaitlistClock(25 * time.Hour); err != nil {
		t.Fatal(err)
	}
	beaOffer := offerIn(t, bea)
	wantCode(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", withOffer("Late Pair", anaOffer)), 409, "waitlist_offer_not_valid")
	bought := wantSession(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", withOffer("Bea Pair", beaOffer)))
	s.pay(t, bought)

	// The organizer offers by hand (no place: refused) and closes the waitlist.
	caraEntry := decode[waitlistEntry](t, s.join(t, s.publishable.Key, newVisitorIP(), cara))
	wantCode(t, do(t, s.organizer("POST", "/waitlist/"+caraEntry.ID+"/offer", nil)), 409, "quota_exhausted")
	wantCode(t, do(t, other.organizer("POST", "/waitlist/"+caraEntry.ID+"/offer", nil)), 404, "not_found")
	reader := newKey(t, s.org, stack.KeySpec{Type: "secret", Scopes: []string{"registrations:read"}})
	wantCode(t, do(t, req{"POST", gw("/organizer/categories/" + s.cat + "/waitlist/close"), secret(reader.Key), nil}), 403, "scope_missing")
	res = do(t, s.organizer("POST", "/categories/"+s.cat+"/waitlist/close", nil))
	conforms(t, "organizerCloseWaitlist", res)
	var closed struct{ ClosedEntries int }
	if err := json.Unmarshal(res.body, &closed); err != nil || closed.ClosedEntries != 1 {
		t.Fatalf("close: %d %s", res.status, res.body)
	}
	ip := newVisitorIP()
	wantCode(t, s.join(t, s.publishable.Key, ip, "dan.waitlist@example.com"), 409, "waitlist_closed")
	for range 4 {
		s.join(t, s.publishable.Key, ip, "dan.waitlist@example.com")
	}
	wantCode(t, s.join(t, s.publishable.Key, ip, "dan.waitlist@example.com"), 429, "rate_limited")
}
