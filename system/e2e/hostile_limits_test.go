package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// receiptsPerKeyLimit is the suite gateways' receipts limit per publishable key and minute
// (RATE_LIMIT_RECEIPTS_PER_KEY's default).
const receiptsPerKeyLimit = 60

// TestAnAddressPastItsLimitsLeavesTheKeyToOtherBuyers: one address sends empty checkout
// sessions and receipt lookups far past its own limits, as fast as it can; a buyer from another
// address still opens a session, pays and finds the receipt. Requests refused by the attacker's
// own buckets spend nothing of the site's key, whose limits every visitor shares.
func TestAnAddressPastItsLimitsLeavesTheKeyToOtherBuyers(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	attacker := newVisitorIP()
	counts := map[int]int{}
	for range 4 * checkoutPerKeyLimit {
		counts[s.postWith(t, s.publishable.Key, attacker, "session", map[string]any{}).status]++
	}
	lookup := func(ip, email string) response {
		h := browser(s.publishable.Key, site)
		h["X-Forwarded-For"] = ip
		return do(t, req{"POST", gw("/browser/events/" + s.event.ID + "/registration-receipts/lookup"), h, map[string]any{"email": email}})
	}
	for range receiptsPerKeyLimit + 10 {
		counts[lookup(attacker, "someone@example.com").status]++
	}
	if counts[429] == 0 || counts[400]+counts[201]+counts[429] != 4*checkoutPerKeyLimit+receiptsPerKeyLimit+10 {
		t.Fatalf("the attack's answers %v: want refusals by validation, lookups and 429s only", counts)
	}

	buyer := newVisitorIP()
	if res := lookup(buyer, "ana@example.com"); res.status != 201 {
		t.Errorf("the buyer's receipt lookup right after the attack: %d %s", res.status, res.body)
	}
	a := wantSession(t, s.postWith(t, s.publishable.Key, buyer, "session", s.purchase("Team Undeterred")))
	call := stripeSessionOf(t, s.org, a.OrderID)
	payload := stripeEvent(t, "checkout.session.completed", call, a.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	res := lookup(buyer, "ana@example.com")
	var found struct {
		Found bool `json:"found"`
	}
	if res.status != 201 || json.Unmarshal(res.body, &found) != nil || !found.Found {
		t.Fatalf("the buyer's receipt lookup after the attack: %d %s", res.status, res.body)
	}
}

// TestIPv6ClientsAreLimitedByTheirSlash64: per-address limits count an IPv6 client by its /64
// (one subscriber's allocation): two addresses of one /64 share the checkout-session limit,
// an address of another /64 has its own.
func TestIPv6ClientsAreLimitedByTheirSlash64(t *testing.T) {
	org := newOrganizer(t)
	k := newKey(t, org, stack.KeySpec{Type: "publishable", Origins: []string{site}})
	for i := range checkoutPerIPLimit {
		if res := sessionFrom(t, k.Key, fmt.Sprintf("2001:db8:64:1::%x", i+1)); res.status == 429 {
			t.Fatalf("request %d refused under the per-address limit of %d: %s", i+1, checkoutPerIPLimit, res.body)
		}
	}
	res := sessionFrom(t, k.Key, "2001:db8:64:1:ffff:ffff:ffff:ffff")
	wantError(t, res, 429, "rate limit exceeded")
	wantRetryHeaders(t, res, checkoutPerIPLimit)
	if res := sessionFrom(t, k.Key, "2001:db8:64:2::1"); res.status == 429 {
		t.Fatalf("an address of another /64 shares the refused one's limit: %s", res.body)
	}
}
