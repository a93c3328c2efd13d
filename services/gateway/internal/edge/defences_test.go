package edge

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// operation returns the document's operation with this id.
func operation(t *testing.T, id string) apispec.Operation {
	t.Helper()
	for _, op := range apispec.Operations() {
		if op.ID == id {
			return op
		}
	}
	t.Fatalf("no operation %s", id)
	return apispec.Operation{}
}

// padded is a JSON body of exactly n bytes: body followed by spaces.
func padded(body string, n int) string { return body + strings.Repeat(" ", n-len(body)) }

// wantStatus checks a response's status and that its standard error body's message says want.
func wantStatus(t *testing.T, res answer, status int, want string) {
	t.Helper()
	raw := res.body
	if res.status != status {
		t.Fatalf("status %d, want %d: %s", res.status, status, raw)
	}
	if want == "" {
		return
	}
	var body struct {
		StatusCode int    `json:"statusCode"`
		Message    string `json:"message"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || body.StatusCode != status || !strings.Contains(body.Message, want) {
		t.Fatalf("body %s, want the standard error body saying %q", raw, want)
	}
}

// TestBodiesOverTheOperationsLimitAreRefusedFirst: a body one byte over its operation's limit
// is refused with 413 naming the limit before the key is even looked at (no key, no lookup in
// auth), one at the limit is served; an operation without a body takes none, and the Stripe
// webhook has its own bound.
func TestBodiesOverTheOperationsLimitAreRefusedFirst(t *testing.T) {
	h := newHarness(t, Limits{})
	search := operation(t, "browserSearchEvents")
	limit := strconv.Itoa(search.MaxBodyBytes)
	for _, headers := range []map[string]string{nil, h.browserHeaders(site)} {
		res := h.do(t, call{method: "POST", path: "/browser/events/search", addr: newAddr(), body: padded("{}", search.MaxBodyBytes+1), headers: headers})
		wantStatus(t, res, http.StatusRequestEntityTooLarge, "accepts at most "+limit+" bytes")
	}
	if n := h.auth.lookups.Load(); n != 0 {
		t.Fatalf("%d key lookups for oversized bodies", n)
	}
	res := h.do(t, call{method: "POST", path: "/browser/events/search", addr: newAddr(), body: padded("{}", search.MaxBodyBytes), headers: h.browserHeaders(site)})
	wantStatus(t, res, http.StatusOK, "")

	res = h.do(t, call{method: "GET", path: "/browser/events/evt_1", addr: newAddr(), body: "{}", headers: h.browserHeaders(site)})
	wantStatus(t, res, http.StatusRequestEntityTooLarge, "takes no body")
	res = h.do(t, call{method: "POST", path: "/organizer/events/search", addr: newAddr(), body: padded("{}", search.MaxBodyBytes+1)})
	wantStatus(t, res, http.StatusRequestEntityTooLarge, "accepts at most "+limit+" bytes")

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://gateway/webhooks/stripe", strings.NewReader(padded("{}", WebhookMaxBody+1)))
	wantStatus(t, h.send(t, req), http.StatusRequestEntityTooLarge, "accepts at most "+strconv.Itoa(WebhookMaxBody)+" bytes")
	if len(h.owner.requests()) != 1 {
		t.Fatalf("the owner received %d requests, want the one at the limit", len(h.owner.requests()))
	}
}

// TestCORSEchoesTheNormalizedOrigin: the page's origin reaches CORS answers (preflights too)
// and the owner's identity token as the key's allowed origin is written, never as sent.
func TestCORSEchoesTheNormalizedOrigin(t *testing.T) {
	h := newHarness(t, Limits{})
	const sent = "HTTPS://Shop.Example:443"
	res := h.do(t, call{method: "GET", path: "/browser/events/evt_1", addr: newAddr(), headers: h.browserHeaders(sent)})
	wantStatus(t, res, http.StatusOK, "")
	if got := res.header.Get("Access-Control-Allow-Origin"); got != site {
		t.Fatalf("Access-Control-Allow-Origin %q, want %q", got, site)
	}
	if got := h.owner.requests(); len(got) != 1 || got[0].principal.Origin != site {
		t.Fatalf("the owner received %+v, want one request whose identity names origin %s", got, site)
	}
	preflight := h.do(t, call{method: "OPTIONS", path: "/browser/events/search", addr: newAddr(), headers: map[string]string{"Origin": sent}})
	wantStatus(t, preflight, http.StatusNoContent, "")
	if got := preflight.header.Get("Access-Control-Allow-Origin"); got != site {
		t.Fatalf("preflight Access-Control-Allow-Origin %q, want %q", got, site)
	}
	refused := h.do(t, call{method: "GET", path: "/browser/events/evt_1", addr: newAddr(), headers: map[string]string{"Origin": sent}})
	wantStatus(t, refused, http.StatusUnauthorized, "missing publishable key")
	if got := refused.header.Get("Access-Control-Allow-Origin"); got != site {
		t.Fatalf("refusal's Access-Control-Allow-Origin %q, want %q", got, site)
	}
}

// TestEdgeCacheKeysOnTheRoute: a path whose decoded form is that of a kept answer but which
// the router sends to another operation (an event id with an encoded slash) is not served that
// answer: it reaches the owner with its path as sent.
func TestEdgeCacheKeysOnTheRoute(t *testing.T) {
	h := newHarness(t, Limits{})
	addr := newAddr()
	get := func(path string) answer {
		return h.do(t, call{method: "GET", path: path, addr: addr, headers: h.browserHeaders(site)})
	}
	const cards = "/browser/events/evt_1/pricing-cards"
	for _, want := range []string{"MISS", "HIT"} {
		if res := get(cards); res.status != http.StatusOK || res.header.Get("X-Cache") != want {
			t.Fatalf("pricing cards: %d, X-Cache %q, want %s", res.status, res.header.Get("X-Cache"), want)
		}
	}
	res := get("/browser/events/evt_1%2Fpricing-cards")
	raw := res.body
	if res.header.Get("X-Cache") == "HIT" || !strings.Contains(string(raw), "evt_1%2Fpricing-cards") {
		t.Fatalf("an event id with an encoded slash got X-Cache %q and %s, want the owner's own answer", res.header.Get("X-Cache"), raw)
	}
	if got := h.owner.requests(); len(got) != 2 || got[1].path != BasePath+"/browser/events/evt_1%2Fpricing-cards" {
		t.Fatalf("the owner received %+v", got)
	}
}

// TestOriginLookupsOfRefusedRequestsAreThrottled: refused browser requests from one address,
// each with a made-up Origin, cost auth at most the address's lookup limit, and the allowed
// origin stays decided: preflights from it need no lookup afterwards.
func TestOriginLookupsOfRefusedRequestsAreThrottled(t *testing.T) {
	const lookups = 5
	limit, _ := ratelimit.ParseLimit(strconv.Itoa(lookups) + "/m")
	h := newHarness(t, Limits{KeyLookupPerIP: limit})
	preflight := func() {
		res := h.do(t, call{method: "OPTIONS", path: "/browser/events/search", addr: newAddr(), headers: map[string]string{"Origin": site}})
		wantStatus(t, res, http.StatusNoContent, "")
	}
	preflight()
	before := h.auth.originLookups.Load()
	attacker := newAddr()
	for i := range 50 {
		origin := "https://made-up-" + strconv.Itoa(i) + ".example"
		res := h.do(t, call{method: "POST", path: "/browser/events/search", addr: attacker, body: "{}", headers: map[string]string{"Origin": origin}})
		wantStatus(t, res, http.StatusUnauthorized, "missing publishable key")
		if res.header.Get("Access-Control-Allow-Origin") != "" || res.header.Get("RateLimit-Limit") != "" {
			t.Fatalf("a refusal for made-up origin %s carries CORS or the lookup limit's headers: %v", origin, res.header)
		}
	}
	if n := h.auth.originLookups.Load() - before; n != lookups {
		t.Fatalf("50 made-up origins from one address cost auth %d origin lookups, want the limit's %d", n, lookups)
	}
	lookedUp := h.auth.originLookups.Load()
	preflight()
	if n := h.auth.originLookups.Load(); n != lookedUp {
		t.Fatal("the allowed origin was looked up again after the made-up ones")
	}
}
