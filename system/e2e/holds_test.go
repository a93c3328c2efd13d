package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// fullPurchase is a session body holding 11 places: the shop's pair and 10 guest pairs, every
// athlete invented, bought by purchaser.
func (s *shop) fullPurchase(team, purchaser string) map[string]any {
	body := s.purchase(team)
	body["purchaserEmail"] = purchaser
	guests := make([]any, 10)
	for i := range guests {
		g := s.purchase(fmt.Sprintf("%s Guest %d", team, i))
		guest := map[string]any{"guestEmail": fmt.Sprintf("guest%d.%s", i, purchaser), "guestName": fmt.Sprintf("Guest %d", i)}
		for _, k := range []string{"categoryId", "teamName", "athletes", "customFields", "waiversAccepted"} {
			guest[k] = g[k]
		}
		guests[i] = guest
	}
	body["guestRegistrations"] = guests
	return body
}

// wantHoldRefused checks the 429 of a hold over a cap on unpaid places: the standard body,
// its cause, and a Retry-After within the 10-minute hold.
func wantHoldRefused(t *testing.T, res response, cause string) {
	t.Helper()
	wantError(t, res, 429, cause)
	conforms(t, "browserCheckoutSession", res)
	if ra, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || ra < 1 || ra > 600 {
		t.Fatalf("Retry-After %q, want the seconds until the earliest hold lapses (at most 600)", res.header.Get("Retry-After"))
	}
}

// pay completes a purchase as Stripe would: a signed checkout.session.completed for the order.
func (s *shop) pay(t *testing.T, a sessionAnswer) {
	t.Helper()
	if out, err := sys.Trigger(context.Background(), "--session", a.OrderID); err != nil || !strings.Contains(out, `"result":"applied"`) {
		t.Fatalf("paying %s: %v %s", a.OrderID, err, out)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
}

// TestAnAddressHoldingItsCapOfUnpaidPlacesIsRefused: an address creating sessions with invented
// athletes and buyers, paying for none, holds at most its cap of unpaid places (22 in this
// suite) in the event: its next session is refused with 429 and holds nothing, while a buyer
// from another address completes a purchase.
func TestAnAddressHoldingItsCapOfUnpaidPlacesIsRefused(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	attacker := newVisitorIP()
	for i := range 2 {
		wantSession(t, s.postWith(t, s.publishable.Key, attacker, "session", s.fullPurchase(fmt.Sprintf("Bot %d", i), fmt.Sprintf("bot%d@example.com", i))))
	}
	wantHoldRefused(t, s.postWith(t, s.publishable.Key, attacker, "session", s.fullPurchase("Bot 2", "bot2@example.com")),
		fmt.Sprintf("%d places of this event are already held from this address", holdCapPerAddress))
	s.wantPlaces(t, 0, 22)

	a := wantSession(t, s.postWith(t, s.publishable.Key, s.visitorIP, "session", s.purchase("Team Honest")))
	s.pay(t, a)
	s.wantPlaces(t, 1, 22)
}

// TestAPurchaserEmailHoldingItsCapOfUnpaidPlacesIsRefused: one purchaser e-mail, in any case and
// from rotating addresses, holds at most 22 unpaid places in the event; the next session for it
// is refused with 429, while another buyer completes a purchase.
func TestAPurchaserEmailHoldingItsCapOfUnpaidPlacesIsRefused(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	for i, email := range []string{"Hoarder@Example.com", "hoarder@example.com"} {
		wantSession(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", s.fullPurchase(fmt.Sprintf("Hoard %d", i), email)))
	}
	wantHoldRefused(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", s.fullPurchase("Hoard 2", "HOARDER@example.com")),
		"22 places of this event are already held for this purchaser e-mail")

	a := wantSession(t, s.postWith(t, s.publishable.Key, s.visitorIP, "session", s.purchase("Team Honest")))
	s.pay(t, a)
	s.wantPlaces(t, 1, 22)
}
