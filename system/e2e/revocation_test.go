package e2e

import (
	"sort"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// TestRevokedKeyIsRefusedByEveryGateway revokes keys through auth and measures, on each of two
// separately started gateways that had the key cached, the time until the key is refused.
func TestRevokedKeyIsRefusedByEveryGateway(t *testing.T) {
	if len(sys.GatewayURLs) < 2 {
		t.Fatal("the suite starts two gateways")
	}
	org := newOrganizer(t)
	const rounds = 10
	var worst []time.Duration
	for range rounds {
		k := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
		for _, base := range sys.GatewayURLs {
			if res := do(t, req{"POST", base + "/external/v1/organizer/events/search", fromVisitor(secret(k.Key)), "{}"}); res.status != 201 {
				t.Fatalf("%s before revocation: %d %s", base, res.status, res.body)
			}
		}
		start := time.Now()
		if err := sys.RevokeKey(t.Context(), k.ID); err != nil {
			t.Fatal(err)
		}
		var slowest time.Duration
		for _, base := range sys.GatewayURLs {
			took := untilRefused(t, base, k.Key, start)
			slowest = max(slowest, took)
		}
		worst = append(worst, slowest)
	}
	sort.Slice(worst, func(i, j int) bool { return worst[i] < worst[j] })
	t.Logf("revoke to refusal on both gateways over %d revocations: median %v, worst %v (key cache lifetime 60s)",
		rounds, worst[rounds/2].Round(time.Millisecond), worst[rounds-1].Round(time.Millisecond))
}

// untilRefused polls a gateway with key until it answers 401 and returns the time since start.
// The key cache lives 60s, so a refusal well within it comes from the pushed revocation.
func untilRefused(t *testing.T, base, key string, start time.Time) time.Duration {
	t.Helper()
	for time.Since(start) < 15*time.Second {
		res := do(t, req{"POST", base + "/external/v1/organizer/events/search", fromVisitor(secret(key)), "{}"})
		if res.status == 401 {
			wantError(t, res, 401, "revoked")
			return time.Since(start)
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("%s still accepts the key 15s after it was revoked", base)
	return 0
}

// fromVisitor sends h from an address of its own: the key lookups of a new key on every round
// would otherwise share the suite's address and its per-address lookup limit, which is not
// what this test measures.
func fromVisitor(h map[string]string) map[string]string {
	h["X-Forwarded-For"] = newVisitorIP()
	return h
}
