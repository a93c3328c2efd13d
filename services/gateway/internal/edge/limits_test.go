package edge

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// TestSessionsRefusedByTheKeysSessionLimitSpendNoPageReads: checkout sessions from many
// addresses far past the key's session limit are refused with 429 (Retry-After and the
// refusing limit's RateLimit headers), and only the sessions it admitted drew from the key's
// browser bucket: the site's page reads keep the rest of it.
func TestSessionsRefusedByTheKeysSessionLimitSpendNoPageReads(t *testing.T) {
	sessions, _ := ratelimit.ParseLimit("2/m")
	pages, _ := ratelimit.ParseLimit("6/m")
	h := newHarness(t, Limits{CheckoutSessionPerKey: sessions, BrowserPerKey: pages})
	counts := map[int]int{}
	var refused answer
	for range 10 {
		res := h.do(t, call{method: "POST", path: "/browser/checkout/registration/session", addr: newAddr(), body: "{}", headers: h.browserHeaders(site)})
		counts[res.status]++
		if res.status == http.StatusTooManyRequests {
			refused = res
		}
	}
	if counts[http.StatusBadRequest] != 2 || counts[http.StatusTooManyRequests] != 8 {
		t.Fatalf("10 sessions under a key limit of 2 were answered %v, want 2 validated (400) and 8 refused (429)", counts)
	}
	read := func() answer {
		return h.do(t, call{method: "GET", path: "/browser/events/evt_1", addr: newAddr(), headers: h.browserHeaders(site)})
	}
	for i := range 4 {
		if res := read(); res.status != http.StatusOK {
			t.Fatalf("page read %d of the 4 the admitted sessions left: %d %s", i+1, res.status, res.body)
		}
	}
	wantStatus(t, read(), http.StatusTooManyRequests, "rate limit exceeded: 6 requests per 1m0s")
	wantStatus(t, refused, http.StatusTooManyRequests, "rate limit exceeded: 2 requests per 1m0s")
	if refused.header.Get("Retry-After") == "" || refused.header.Get("RateLimit-Limit") != "2" || refused.header.Get("RateLimit-Remaining") != "0" {
		t.Fatalf("a refused session's headers %v, want Retry-After and the session limit's RateLimit headers", refused.header)
	}
}
