package e2e

import (
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// TestKnownKeysOutliveAnAuthOutage stops auth behind a gateway that trusts a looked-up key for
// one second: a key it looked up before keeps working past that second (the gateway counts
// each answer given from a lapsed entry), a key it never saw is 503 with Retry-After, and a key
// whose revocation was pushed before the outage stays refused. Auth is started again at the end.
func TestKnownKeysOutliveAnAuthOutage(t *testing.T) {
	ctx := t.Context()
	base, stop, err := sys.AddGateway(ctx, "KEY_CACHE_TTL=1s", "KEY_STALE_TTL=10m")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	org := newOrganizer(t)
	used := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	revoked := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	unseen := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	visitor := newVisitorIP()
	search := func(key string) response {
		h := secret(key)
		h["X-Forwarded-For"] = visitor
		return do(t, req{"POST", base + "/external/v1/organizer/events/search", h, "{}"})
	}
	for _, k := range []stack.Key{used, revoked} {
		if res := search(k.Key); res.status != 201 {
			t.Fatalf("before the outage: %d %s", res.status, res.body)
		}
	}
	if err := sys.RevokeKey(ctx, revoked.ID); err != nil {
		t.Fatal(err)
	}
	awaitAnswer(t, func() response { return search(revoked.Key) }, func(r response) bool { return r.status == 401 })

	if err := sys.StopService("auth"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sys.StartService(ctx, "auth"); err != nil {
			t.Fatalf("auth did not start again: %v", err)
		}
		if res := search(unseen.Key); res.status != 201 {
			t.Fatalf("after auth came back, a new key: %d %s", res.status, res.body)
		}
	}()
	testkit.Eventually(t, eventTravel, func() string {
		if res := search(used.Key); res.status != 201 {
			t.Fatalf("a key used before the outage: %d %s", res.status, res.body)
		}
		if n := staleServed(t, base); n == 0 {
			return "the gateway has not yet served the key past its cache lifetime"
		}
		return ""
	})
	res := search(unseen.Key)
	wantError(t, res, 503, "key verification is temporarily unavailable")
	wantCode(t, res, 503, "service_unavailable")
	if res.header.Get("Retry-After") == "" {
		t.Fatalf("a 503 without Retry-After: %v", res.header)
	}
	wantError(t, search(revoked.Key), 401, "revoked")
}

// staleServed reads the gateway's count of keys served past their cache lifetime.
func staleServed(t *testing.T, base string) int {
	t.Helper()
	return metricTotal(t, base, "gateway_keys_stale_served")
}
