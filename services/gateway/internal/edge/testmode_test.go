package edge

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// testKeys adds a test secret key (every scope) and a test publishable key (allowing site)
// of the harness's organizer to auth, stored with mode (empty: as an auth without the field).
func (h *harness) testKeys(t *testing.T, mode apikey.Mode) (secret, publishable string) {
	t.Helper()
	secret, err := apikey.Generate(apikey.Secret, apikey.Test)
	if err != nil {
		t.Fatal(err)
	}
	publishable, err = apikey.Generate(apikey.Publishable, apikey.Test)
	if err != nil {
		t.Fatal(err)
	}
	h.auth.mu.Lock()
	defer h.auth.mu.Unlock()
	org := h.auth.keys[apikey.Hash(h.secret)].OrganizerID
	h.auth.keys[apikey.Hash(secret)] = keys.Key{ID: "key_" + randomHex(6), OrganizerID: org, Type: apikey.Secret, Mode: mode, Scopes: allScopes()}
	h.auth.keys[apikey.Hash(publishable)] = keys.Key{ID: "key_" + randomHex(6), OrganizerID: org, Type: apikey.Publishable, Mode: mode, AllowedOrigins: []string{site}}
	return secret, publishable
}

func bearer(key string) map[string]string { return map[string]string{"Authorization": "Bearer " + key} }

func browserKey(key string) map[string]string {
	return map[string]string{"X-Publishable-Key": key, "Origin": site}
}

// TestTestKeysReachOwnersAsTest: the principal a test key (secret or publishable) sends to the
// owner is a test principal, a live key's a live one; a key whose mode auth stored apart from
// its prefix is refused as unknown, and a key without a stored mode goes by its prefix.
func TestTestKeysReachOwnersAsTest(t *testing.T) {
	h := newHarness(t, Limits{})
	testSecret, testPublishable := h.testKeys(t, apikey.Test)
	bare, _ := h.testKeys(t, "")
	for i, tc := range []struct {
		c    call
		test bool
	}{
		{call{method: "GET", path: "/organizer/events/evt_1", headers: bearer(h.secret)}, false},
		{call{method: "GET", path: "/organizer/events/evt_1", headers: bearer(testSecret)}, true},
		{call{method: "GET", path: "/organizer/events/evt_1", headers: bearer(bare)}, true},
		{call{method: "GET", path: "/browser/events/evt_1?previewToken=x", headers: browserKey(h.key)}, false},
		{call{method: "GET", path: "/browser/events/evt_1?previewToken=x", headers: browserKey(testPublishable)}, true},
	} {
		tc.c.addr = newAddr()
		wantStatus(t, h.do(t, tc.c), http.StatusOK, "")
		got := h.owner.requests()
		if len(got) != i+1 || got[i].principal.Test != tc.test {
			t.Fatalf("%s with key %.12s...: principals %+v, want Test %v", tc.c.path, tc.c.headers, got, tc.test)
		}
	}
	mislabelled, _ := h.testKeys(t, apikey.Live)
	wantStatus(t, h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: bearer(mislabelled)}),
		http.StatusUnauthorized, "unknown API key")
	if n := len(h.owner.requests()); n != 5 {
		t.Fatalf("a key stored live under a test prefix reached the owner (%d requests)", n)
	}
}

// testOnlyCalls are requests to every test-only operation of the document.
func testOnlyCalls(t *testing.T) []call {
	t.Helper()
	var calls []call
	for _, op := range apispec.Operations() {
		if op.TestOnly {
			calls = append(calls, call{method: op.Method, path: strings.ReplaceAll(op.Path, "{sessionId}", "cs_1")})
		}
	}
	if len(calls) < 5 {
		t.Fatalf("the document has %d test-only operations, want at least 5", len(calls))
	}
	return calls
}

// TestLiveKeysAreRefusedOnTestOnlyOperations: a live secret key on each test-only operation is
// answered 403 test_key_required without reaching the owner or spending its limit; a test key
// reaches the owner.
func TestLiveKeysAreRefusedOnTestOnlyOperations(t *testing.T) {
	one, _ := ratelimit.ParseLimit("1/m")
	h := newHarness(t, Limits{PerKey: one})
	testSecret, _ := h.testKeys(t, apikey.Test)
	calls := testOnlyCalls(t)
	for _, c := range calls {
		c.addr, c.headers = newAddr(), bearer(h.secret)
		res := h.do(t, c)
		wantStatus(t, res, http.StatusForbidden, "this operation works on test data only; use a test key (pdm_sk_test_...)")
		if !strings.Contains(string(res.body), `"code":"test_key_required"`) {
			t.Fatalf("%s %s: %s, want code test_key_required", c.method, c.path, res.body)
		}
	}
	if got := h.owner.requests(); len(got) != 0 {
		t.Fatalf("live keys on test-only operations reached the owner: %+v", got)
	}
	// The live key's one request a minute is still there.
	wantStatus(t, h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: newAddr(), headers: bearer(h.secret)}), http.StatusOK, "")
	for i, c := range calls {
		c.addr, c.headers = newAddr(), bearer(testSecret)
		wantStatus(t, h.do(t, c), http.StatusOK, "")
		if got := h.owner.requests(); len(got) != i+2 || !got[i+1].principal.Test {
			t.Fatalf("%s %s with a test key: the owner received %+v", c.method, c.path, got)
		}
	}
}

// TestTestTrafficHasLimitsOfItsOwn: a test key runs out of its own, lower limit while the live
// key of its organizer keeps its whole one, and the other way round; on browser routes from one
// client address too (the per-address buckets are apart by mode).
func TestTestTrafficHasLimitsOfItsOwn(t *testing.T) {
	three, _ := ratelimit.ParseLimit("3/m")
	one, _ := ratelimit.ParseLimit("1/m")
	for _, surface := range []string{"organizer", "browser"} {
		for _, testFirst := range []bool{true, false} {
			h := newHarness(t, Limits{PerKey: three, BrowserPerIP: three})
			h.gw.TestLimits = Limits{PerKey: one, BrowserPerIP: one}
			testSecret, testPublishable := h.testKeys(t, apikey.Test)
			addr := newAddr() // every request from one address
			read := func(test bool) answer {
				if surface == "organizer" {
					key := map[bool]string{false: h.secret, true: testSecret}[test]
					return h.do(t, call{method: "GET", path: "/organizer/events/evt_1", addr: addr, headers: bearer(key)})
				}
				key := map[bool]string{false: h.key, true: testPublishable}[test]
				return h.do(t, call{method: "GET", path: "/browser/events/evt_1?previewToken=x", addr: addr, headers: browserKey(key)})
			}
			spend := func(test bool, limit int) {
				t.Helper()
				for i := range limit {
					if res := read(test); res.status != http.StatusOK || res.header.Get("RateLimit-Limit") != strconv.Itoa(limit) {
						t.Fatalf("%s, test %v, request %d of %d: %d RateLimit-Limit %q %s", surface, test, i+1, limit, res.status, res.header.Get("RateLimit-Limit"), res.body)
					}
				}
				wantStatus(t, read(test), http.StatusTooManyRequests, "rate limit exceeded: "+strconv.Itoa(limit)+" requests per 1m0s")
			}
			if testFirst {
				spend(true, 1)
				spend(false, 3)
			} else {
				spend(false, 3)
				spend(true, 1)
			}
		}
	}
}

// TestTheEdgeCacheKeepsModesApart: a shareable answer kept for a live key is never served to a
// test key of the same organizer, nor one kept for a test key to a live key.
func TestTheEdgeCacheKeepsModesApart(t *testing.T) {
	for _, testFirst := range []bool{true, false} {
		h := newHarness(t, Limits{})
		_, testPublishable := h.testKeys(t, apikey.Test)
		first, second := h.key, testPublishable
		if testFirst {
			first, second = second, first
		}
		read := func(key string) answer {
			return h.do(t, call{method: "GET", path: "/browser/events/evt_1", addr: newAddr(), headers: browserKey(key)})
		}
		wantCache := func(res answer, xcache string, test bool) {
			t.Helper()
			if res.status != http.StatusOK || res.header.Get("X-Cache") != xcache || !strings.Contains(string(res.body), `"test":`+strconv.FormatBool(test)) {
				t.Fatalf("test first %v: %d X-Cache %q %s, want %s of a test %v answer", testFirst, res.status, res.header.Get("X-Cache"), res.body, xcache, test)
			}
		}
		wantCache(read(first), "MISS", testFirst)
		wantCache(read(first), "HIT", testFirst)
		wantCache(read(second), "MISS", !testFirst)
		wantCache(read(second), "HIT", !testFirst)
		if n := len(h.owner.requests()); n != 2 {
			t.Fatalf("test first %v: the owner answered %d reads, want one per mode", testFirst, n)
		}
	}
}
