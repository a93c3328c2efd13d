package faults

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// redisOutage is how long Redis stays unreachable: 30 s.
const redisOutage = 30 * time.Second

// TestRedisDown: Redis, which holds the shared rate-limit buckets, is unreachable for 30 s under
// load. No request fails (the gateways limit in-process meanwhile), nothing paid is lost or
// doubled, and a limit still refuses with 429 during the outage: a client address's receipt
// lookups beyond its limit.
func TestRedisDown(t *testing.T) {
	s := newShop(t, 0)
	l := startLoad(t, s)
	testkit.Eventually(t, time.Minute, func() string { return unless(l.sent() >= 5, "%d purchases paid before the outage, want 5", l.sent()) })
	if err := sys.Cut(stack.RedisLink); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	admitted, refused := lookupsUntilRefused(t, s, "198.51.100.77")
	<-time.After(time.Until(cut.Add(redisOutage)))
	if err := sys.Restore(stack.RedisLink); err != nil {
		t.Fatal(err)
	}
	during := l.sent()
	testkit.Eventually(t, time.Minute, func() string {
		return unless(l.sent() >= during+5, "%d purchases paid after Redis came back, want 5", l.sent()-during)
	})
	paid := l.stopLoad()
	c := s.settle(t, paid, time.Minute)
	report(t, "redis-down-30s", c, &l.tally)
	t.Logf("FAULTS %-20s receipt lookups of one address during the outage: %d admitted, then %s", "redis-down-30s", admitted, refused)
	if n := l.tally.fiveXX.Load(); n != 0 {
		t.Errorf("%d answers were 5xx while Redis was down, want none", n)
	}
	if admitted < 1 || admitted > receiptsPerIP {
		t.Errorf("one address had %d receipt lookups admitted during the outage, want 1 to its limit of %d", admitted, receiptsPerIP)
	}
}

// lookupsUntilRefused sends one address's receipt lookups to the first gateway until one is
// refused, and returns how many were admitted and the refusal, which must be a 429 in the
// standard format with Retry-After.
func lookupsUntilRefused(t *testing.T, s *shop, addr string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": "nobody@example.com"})
	r := request{method: "POST", path: "/external/v1/browser/events/" + s.event.ID + "/registration-receipts/lookup", body: body,
		headers: map[string]string{"x-publishable-key": s.publishable.Key, "Origin": site, "X-Forwarded-For": addr}}
	for admitted := 0; admitted <= 3*receiptsPerIP; admitted++ {
		a := send(t.Context(), sys.GatewayURL(), r)
		switch {
		case a.status == 429:
			var b struct {
				StatusCode int    `json:"statusCode"`
				Error      string `json:"error"`
				RequestID  string `json:"requestId"`
			}
			if decode(a, &b) != nil || b.StatusCode != 429 || b.Error != "Too Many Requests" || b.RequestID == "" || a.retryAfter() <= 0 {
				t.Errorf("the refusal is not a 429 in the standard format with Retry-After: %v", a)
			}
			return admitted, "429 with Retry-After " + a.header.Get("Retry-After")
		case a.status != 201:
			t.Fatalf("receipt lookup during the Redis outage: %v", a)
		}
	}
	t.Fatalf("%d receipt lookups of one address were admitted during the Redis outage: the limit did not hold", 3*receiptsPerIP+1)
	return 0, ""
}
