package e2e

import (
	"fmt"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// originChecks is how many times auth was asked whether some key allows an origin.
func originChecks(t *testing.T) int {
	t.Helper()
	return metricTotal(t, sys.URLs["auth"], "http_server_request_duration_seconds_count", `http_route="/internal/origins/check"`)
}

// TestMadeUpOriginsCostAuthAtMostTheLookupLimit: one address sends refused browser requests,
// each with a made-up Origin, to a gateway allowing 5 lookups a minute per address; auth is
// asked about at most 5 of those origins (each refusal goes without CORS headers), and a
// preflight from another address, with an allowed origin written unusually, is still answered
// 204 with the origin as the key allows it.
func TestMadeUpOriginsCostAuthAtMostTheLookupLimit(t *testing.T) {
	const lookupLimit, attempts = 5, 40
	base, stop, err := sys.AddGateway(t.Context(), fmt.Sprintf("RATE_LIMIT_KEY_LOOKUP_PER_IP=%d/m", lookupLimit))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	newKey(t, newOrganizer(t), stack.KeySpec{Type: "publishable", Origins: []string{site}})
	search := base + "/external/v1/browser/events/search"
	attacker := newVisitorIP()
	before := originChecks(t)
	for i := range attempts {
		origin := fmt.Sprintf("https://made-up-%d-%s.example", i, attacker)
		res := do(t, req{"POST", search, map[string]string{"Origin": origin, "X-Forwarded-For": attacker}, "{}"})
		wantError(t, res, 401, "missing publishable key")
		if got := res.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("the refusal for made-up origin %s allows origin %q", origin, got)
		}
	}
	if n := originChecks(t) - before; n < 1 || n > lookupLimit {
		t.Fatalf("%d refused requests with made-up origins from one address cost auth %d origin checks, want 1 to the lookup limit's %d", attempts, n, lookupLimit)
	}

	res := do(t, req{"OPTIONS", search, map[string]string{
		"Origin": "HTTPS://Shop.Example:443", "Access-Control-Request-Method": "POST", "X-Forwarded-For": newVisitorIP(),
	}, nil})
	if res.status != 204 || res.header.Get("Access-Control-Allow-Origin") != site {
		t.Fatalf("a preflight of the allowed origin from another address after the attack: %d, Access-Control-Allow-Origin %q, want 204 and %q; body %s",
			res.status, res.header.Get("Access-Control-Allow-Origin"), site, res.body)
	}
}
