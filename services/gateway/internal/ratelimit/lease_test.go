package ratelimit

import (
	"testing"
	"time"
)

// TestRenewalKeepsUnspentTokens: tokens already taken from Redis are not dropped by a renewal
// that arrives before they lapse, and lapsed ones are not revived by it.
func TestRenewalKeepsUnspentTokens(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	ls := &lease{}
	ls.add(now, 5, 100, time.Second)
	ls.renewed(now.Add(leaseWindow/2), 10, 90, time.Second)
	if ls.tokens != 15 {
		t.Fatalf("%d tokens after a renewal of 10 with 5 unspent, want 15", ls.tokens)
	}
	ls.renewed(now.Add(3*leaseWindow), 10, 80, time.Second)
	if ls.tokens != 10 {
		t.Fatalf("%d tokens after a renewal once the lease lapsed, want the renewal's 10", ls.tokens)
	}
}
