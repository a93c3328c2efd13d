package e2e

import (
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// TestValidSessionsAreLimitedPerKey: purchases that would succeed are refused with 429 once
// the publishable key has created its sessions for the minute, from any address, and the
// refused one reaches neither registration nor Stripe.
func TestValidSessionsAreLimitedPerKey(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	for i := range checkoutPerKeyLimit {
		// Each visitor has its own address, so only the per-key limit can refuse.
		wantSession(t, s.postWith(t, s.publishable.Key, newVisitorIP(), "session", s.purchase("Team Key "+string(rune('A'+i)))))
	}
	res := s.postWith(t, s.publishable.Key, newVisitorIP(), "session", s.purchase("Team Key Over"))
	wantError(t, res, 429, "rate limit exceeded")
	wantRetryHeaders(t, res, checkoutPerKeyLimit)
	if n := len(stripeSessions(s.org)); n != checkoutPerKeyLimit {
		t.Fatalf("%d Stripe sessions, want %d", n, checkoutPerKeyLimit)
	}
	if _, total := s.tickets(t, nil); total != 2*checkoutPerKeyLimit {
		t.Fatalf("%d tickets held, want %d", total, 2*checkoutPerKeyLimit)
	}
}

// TestValidSessionsAreLimitedPerIP: one address creating sessions through several keys is
// refused with 429 past its limit, while another address still buys.
func TestValidSessionsAreLimitedPerIP(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	keys := make([]stack.Key, checkoutPerIPLimit+1)
	for i := range keys {
		// Each request uses another key, so only the per-IP limit can refuse.
		keys[i] = newKey(t, s.org, stack.KeySpec{Type: "publishable", Origins: []string{site}})
	}
	for i := range checkoutPerIPLimit {
		wantSession(t, s.postWith(t, keys[i].Key, s.visitorIP, "session", s.purchase("Team IP "+string(rune('A'+i)))))
	}
	over := keys[checkoutPerIPLimit].Key
	res := s.postWith(t, over, s.visitorIP, "session", s.purchase("Team IP Over"))
	wantError(t, res, 429, "rate limit exceeded")
	wantRetryHeaders(t, res, checkoutPerIPLimit)
	if n := len(stripeSessions(s.org)); n != checkoutPerIPLimit {
		t.Fatalf("%d Stripe sessions, want %d", n, checkoutPerIPLimit)
	}
	wantSession(t, s.postWith(t, over, newVisitorIP(), "session", s.purchase("Team IP Elsewhere")))
}
