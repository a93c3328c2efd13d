package edge

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec/apispectest"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// TestRedirectsAreComparedInTheirASCIIForm: a redirect URL passes only when the host a browser
// reaches, in its IDNA ASCII form, is an allowed origin's. Look-alikes whose real host is another
// domain are refused (a dotted capital I lowercases to i, but its IDNA form is "i" and a
// combining dot: shop.xn--info-qwc.example); hosts IDNA maps onto an allowed one are accepted.
func TestRedirectsAreComparedInTheirASCIIForm(t *testing.T) {
	allowed := []string{"https://shop.info.example", "https://key.example", "https://strasse.example", "https://xn--strae-oqa.example", "https://xn--zz.example"}
	for _, tc := range []struct {
		url  string
		pass bool
		why  string
	}{
		{"https://shop.info.example/ok", true, "the allowed origin"},
		{"https://SHOP.Info.example:443/ok", true, "ASCII case and the default port"},
		{"https://shop.İnfo.example/ok", false, "İ is i and a combining dot: shop.xn--info-qwc.example"},
		{"https://shop.%C4%B0nfo.example/ok", false, "the same İ, percent-encoded"},
		{"https://shop.info\uff0eexample/ok", true, "a fullwidth dot is a dot"},
		{"https://shop.info%EF%BC%8Eexample/ok", true, "a fullwidth dot, percent-encoded"},
		{"https://ｓｈｏｐ.info.example/ok", true, "fullwidth letters are letters"},
		{"https://\u212aey.example/ok", true, "the Kelvin sign is a k"},
		{"https://sh\u00adop.info.example/ok", true, "a soft hyphen is ignored"},
		{"https://straße.example/ok", true, "ß is xn--strae-oqa, an allowed origin"},
		{"https://STRASSE.example/ok", true, "ASCII case"},
		{"https://xn--strae-oqa.example/ok", true, "the A-label of an allowed origin"},
		{"https://XN--STRAE-OQA.example/ok", true, "an A-label in capitals"},
		{"https://straße.example./ok", false, "a trailing dot is another origin"},
		{"https://shop.info.example./ok", false, "a trailing dot is another origin"},
		{"https://shop.info.example\uff0e/ok", false, "a trailing fullwidth dot is a trailing dot"},
		{"https://%73hop.info.example/ok", false, "an ASCII letter percent-encoded is not a host Go's parser reads"},
		{"https://xn--zz.example/ok", false, "an A-label that decodes to no valid label has no ASCII form"},
		{"https://xn--info-qwc.example/ok", false, "another domain"},
		{"https://shop.info.example\u200d/ok", false, "a joiner out of context"},
		{"https://" + strings.Repeat("é", 64) + ".example/ok", false, "a label longer than DNS allows"},
		{"https://shop.info.example@evil.example/ok", false, "user information, then another host"},
		{"http://shop.info.example/ok", false, "another scheme"},
	} {
		err := redirectsAllowed([]byte(`{"successUrl":"`+tc.url+`","cancelUrl":"https://shop.info.example/cart"}`), allowed)
		var he *httpserver.Error
		switch {
		case tc.pass && err != nil:
			t.Errorf("%s (%s) refused: %v", tc.url, tc.why, err)
		case !tc.pass && (!errors.As(err, &he) || he.Code != codeRedirectNotAllowed):
			t.Errorf("%s (%s) passed as on an allowed origin (%v)", tc.url, tc.why, err)
		}
	}
}

// TestLookAlikeOriginsAreRefusedOnEveryRoute: a page on a look-alike of the key's origin is
// refused on a browser route, its preflight is refused (auth is asked about the look-alike's
// own ASCII origin), and a checkout session redirecting to it is refused before it reaches
// checkout; the allowed origin written in mapped Unicode is served as the allowed origin.
func TestLookAlikeOriginsAreRefusedOnEveryRoute(t *testing.T) {
	h := newHarness(t, Limits{})
	const shop = "https://shop.info.example"
	key, err := apikey.Generate(apikey.Publishable)
	if err != nil {
		t.Fatal(err)
	}
	h.auth.mu.Lock()
	h.auth.keys[apikey.Hash(key)] = keys.Key{ID: "key_" + randomHex(6), OrganizerID: "org_" + randomHex(6), Type: apikey.Publishable, AllowedOrigins: []string{shop}}
	h.auth.origins[shop] = true
	h.auth.mu.Unlock()
	const lookAlike = "https://shop.İnfo.example"
	page := func(origin string) map[string]string {
		return map[string]string{"X-Publishable-Key": key, "Origin": origin}
	}

	res := h.do(t, call{method: "POST", path: "/browser/events/search", addr: newAddr(), body: "{}", headers: page(lookAlike)})
	wantStatus(t, res, http.StatusForbidden, "is not allowed for this publishable key")
	res = h.do(t, call{method: "OPTIONS", path: "/browser/events/search", addr: newAddr(), headers: map[string]string{"Origin": lookAlike}})
	wantStatus(t, res, http.StatusForbidden, "is not allowed by any publishable key")

	res = h.do(t, call{method: "POST", path: "/browser/events/search", addr: newAddr(), body: "{}", headers: page("https://shop.info\uff0eexample")})
	if res.status != http.StatusOK || res.header.Get("Access-Control-Allow-Origin") != shop {
		t.Fatalf("the allowed origin with a fullwidth dot: %d, Access-Control-Allow-Origin %q: %s", res.status, res.header.Get("Access-Control-Allow-Origin"), res.body)
	}

	session := apispectest.Minimal(opCheckoutSession)
	session["successUrl"], session["cancelUrl"] = lookAlike+"/ok", shop+"/cart"
	before := len(h.owner.requests())
	res = h.do(t, call{method: "POST", path: "/browser/checkout/registration/session", addr: newAddr(), body: string(apispectest.Encode(session)), headers: page(shop)})
	wantStatus(t, res, http.StatusBadRequest, "")
	if !strings.Contains(string(res.body), `"path":"successUrl","code":"redirect_not_allowed"`) || len(h.owner.requests()) != before {
		t.Fatalf("a checkout session redirecting to a look-alike host: %s (%d requests reached checkout, %d before)", res.body, len(h.owner.requests()), before)
	}
}

// FuzzOriginOf: whatever the URL, its origin is empty or ASCII with nothing left to map, so
// comparing two of them compares the hosts browsers reach.
func FuzzOriginOf(f *testing.F) {
	for _, seed := range []string{
		"https://shop.info.example/ok", "https://shop.İnfo.example/ok", "https://shop.info\uff0eexample",
		"https://\u212aey.example", "https://straße.example", "https://shop.info.example.", "https://%C4%B0.example",
		"https://%73hop.example", "https://xn--zz.example", "https://XN--STRAE-OQA.example:443", "http://[::1]:80",
		"https://" + strings.Repeat("é", 64) + ".example", "https://ｓｈｏｐ。example", "https://a\u200db.example",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		o := originOf(raw)
		if o == "" {
			return
		}
		if !ascii(o) || strings.ToLower(o) != o {
			t.Fatalf("originOf(%q) = %q: not lowercase ASCII", raw, o)
		}
		if again := originOf(o); again != o {
			t.Fatalf("originOf(%q) = %q, whose own origin is %q", raw, o, again)
		}
	})
}

// BenchmarkOriginOf measures the Origin header of every browser request (ASCII) and a host
// written in Unicode.
func BenchmarkOriginOf(b *testing.B) {
	for _, origin := range []string{"https://shop.example", "https://straße.example"} {
		b.Run(origin, func(b *testing.B) {
			for b.Loop() {
				originOf(origin)
			}
		})
	}
}
