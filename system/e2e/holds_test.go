package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
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
		t.Fatalf("Retry-After %q, want the seconds until enough holds lapse (at most 600)", res.header.Get("Retry-After"))
	}
}

// pay completes a purchase as Stripe would: a signed checkout.session.completed for the order.
func (s *shop) pay(t *testing.T, a sessionAnswer) {
	t.Helper()
	if out, err := sys.Trigger(t.Context(), "--session", a.OrderID); err != nil || !strings.Contains(out, `"result":"applied"`) {
		t.Fatalf("paying %s: %v %s", a.OrderID, err, out)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
}

// wantOrderStatus waits until every ticket of the order is on an order of that status in the
// organizer's search.
func (s *shop) wantOrderStatus(t *testing.T, orderID, status string) {
	t.Helper()
	testkit.Eventually(t, eventTravel, func() string {
		rows, _ := s.tickets(t, map[string]any{"ticketStatus": "ALL"})
		n := 0
		for _, r := range rows {
			if r.Order.OrderID != orderID {
				continue
			}
			if r.Order.Status != status {
				return fmt.Sprintf("order %s is %s, want %s", orderID, r.Order.Status, status)
			}
			n++
		}
		if n == 0 {
			return "no ticket of order " + orderID
		}
		return ""
	})
}

// TestAnAddressHoldingItsCapOfUnpaidPlacesIsRefused: an address creating sessions with invented
// athletes and buyers, paying for none, holds at most its cap of unpaid places (22 in this
// suite) in the event, whose category has one place more: its next session, for that last
// place, is refused with 429 and holds nothing, so the event is not sold out to it, and a buyer
// from another address gets the place and pays.
func TestAnAddressHoldingItsCapOfUnpaidPlacesIsRefused(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	s.limitPlaces(t, holdCapPerAddress+1)
	attacker := newVisitorIP()
	for i := range 2 {
		wantSession(t, s.postWith(t, s.publishable.Key, attacker, "session", s.fullPurchase(fmt.Sprintf("Bot %d", i), fmt.Sprintf("bot%d@example.com", i))))
	}
	last := s.purchase("Bot Last")
	last["purchaserEmail"] = "bot2@example.com"
	wantHoldRefused(t, s.postWith(t, s.publishable.Key, attacker, "session", last),
		fmt.Sprintf("%d places of this event are already held from this address", holdCapPerAddress))
	s.wantPlaces(t, 0, 22)

	a := wantSession(t, s.postWith(t, s.publishable.Key, s.visitorIP, "session", s.purchase("Team Honest")))
	s.pay(t, a)
	s.wantPlaces(t, 1, 22)
}

// TestNobodyCanLockABuyersEmailOut: an attacker holds unpaid places under a buyer's e-mail (in
// any case, from rotating addresses) up to the e-mail's cap of 22, in an event whose category
// has one place more; the buyer's own purchase still holds its place, and the attacker's
// oldest hold is released to make room (its order CANCELLED, its 11 places freed). The buyer
// pays and keeps the place.
func TestNobodyCanLockABuyersEmailOut(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	s.limitPlaces(t, 23)
	var held []sessionAnswer
	for i, email := range []string{"Victim@Example.com", "victim@example.com"} {
		held = append(held, wantSession(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", s.fullPurchase(fmt.Sprintf("Hoard %d", i), email))))
	}
	s.wantPlaces(t, 0, 22)

	mine := s.purchase("Team Victim")
	mine["purchaserEmail"] = "VICTIM@example.com"
	a := wantSession(t, s.postWith(t, s.publishable.Key, s.visitorIP, "session", mine))
	s.wantOrderStatus(t, held[0].OrderID, "CANCELLED")
	s.wantOrderStatus(t, held[1].OrderID, "PENDING")
	s.pay(t, a)
	s.wantPlaces(t, 1, 11)
}

// TestALatePaymentDoesNotTakeAPromocodeUseTwice: a buyer's checkout with the one-use code
// ONCE10 lapses (its Stripe session expires, the hold is released and the use given back), and
// another buyer takes the use; the first buyer's payment then arrives anyway. The code is not
// used twice: that payment is refunded in full through Stripe, its checkout reads
// REFUNDED_NO_PROMOCODE and its order REFUNDED, while the other buyer pays and keeps the place.
func TestALatePaymentDoesNotTakeAPromocodeUseTwice(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	withCode := func(team string) map[string]any {
		b := s.purchase(team)
		b["promocode"] = "ONCE10"
		return b
	}
	late := s.open(t, withCode("Team Late"))
	lateCall := stripeSessionOf(t, s.org, late.OrderID)
	expired := stripeEvent(t, "checkout.session.expired", lateCall, late.SessionID)
	wantWebhook(t, deliver(t, expired, signed(expired, time.Now())), "applied")
	s.wantOrder(t, late.OrderID, "CANCELLED", "CANCELLED")

	other := s.open(t, withCode("Team On Time"))
	paid := stripeEvent(t, "checkout.session.completed", lateCall, late.SessionID)
	wantWebhook(t, deliver(t, paid, signed(paid, time.Now())), "applied")
	testkit.Eventually(t, eventTravel, func() string {
		if st := checkoutState(t, late.OrderID); st != "REFUNDED_NO_PROMOCODE" {
			return "checkout " + st + ", want REFUNDED_NO_PROMOCODE"
		}
		return ""
	})
	s.wantOrder(t, late.OrderID, "CANCELLED", "REFUNDED")
	if refunds := sys.StripeCalls("POST", "/v1/refunds", s.org); len(refunds) != 1 || refunds[0].Metadata("orderId") != late.OrderID {
		t.Fatalf("refunds reaching Stripe: %+v, want one of order %s", refunds, late.OrderID)
	}
	s.pay(t, other)
	s.wantPlaces(t, 1, 0)
}
