package edge

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/idna"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec/apispectest"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// TestRedirectsAreComparedInTheirASCIIForm: a redirect URL passes only when its host, already
// in canonical form, has the IDNA ASCII form of an allowed origin's host. Look-alikes whose real
// host is another domain are refused (a dotted capital I lowercases to i, but its IDNA form is "i"
// and a combining dot: shop.xn--info-qwc.example), and so is every host a browser would have to
// map first, even onto an allowed host: the mapping depends on the browser's Unicode version.
func TestRedirectsAreComparedInTheirASCIIForm(t *testing.T) {
	allowed := []string{
		"https://shop.info.example", "https://key.example", "https://strasse.example", "https://xn--strae-oqa.example",
		"https://xn--zz.example", "https://class.example", "https://xn--cla-7ka.example", "https://xn--caf-dma.example",
		"https://file.example",
	}
	for _, tc := range []struct {
		url  string
		pass bool
		why  string
	}{
		{"https://shop.info.example/ok", true, "the allowed origin"},
		{"https://SHOP.Info.example:443/ok", true, "ASCII case and the default port"},
		{"https://shop.İnfo.example/ok", false, "İ is i and a combining dot: shop.xn--info-qwc.example"},
		{"https://shop.%C4%B0nfo.example/ok", false, "the same İ, percent-encoded"},
		{"https://claẞ.example/ok", false, "ẞ is ss in Unicode 15.0's tables, ß (xn--cla-7ka) in 15.1's: either is allowed, neither is certain"},
		{"https://cla%E1%BA%9E.example/ok", false, "the same ẞ, percent-encoded in an ASCII URL"},
		{"https://xn--cla-igz.example/ok", false, "the A-label of claẞ, a label that needs mapping"},
		{"https://claß.example/ok", true, "ß is a letter of its own: xn--cla-7ka, an allowed origin"},
		{"https://straße.example/ok", true, "ß is xn--strae-oqa, an allowed origin"},
		{"https://stra%C3%9Fe.example/ok", true, "the same ß, percent-encoded"},
		{"https://STRASSE.example/ok", true, "ASCII case"},
		{"https://café.example/ok", true, "é is xn--caf-dma, an allowed origin"},
		{"https://CAFé.example/ok", true, "ASCII case beside a canonical letter"},
		{"https://CAFÉ.example/ok", false, "É is mapped to é: case beyond ASCII is refused"},
		{"https://cafe\u0301.example/ok", false, "e and a combining acute are not in normal form"},
		{"https://shop.info\uff0eexample/ok", false, "a fullwidth dot is mapped to a dot"},
		{"https://shop.info%EF%BC%8Eexample/ok", false, "a fullwidth dot, percent-encoded"},
		{"https://ｓｈｏｐ.info.example/ok", false, "fullwidth letters are mapped to letters"},
		{"https://\u212aey.example/ok", false, "the Kelvin sign is mapped to k"},
		{"https://\ufb01le.example/ok", false, "the ligature fi is a compatibility form of f and i"},
		{"https://sh\u00adop.info.example/ok", false, "a soft hyphen is dropped by mapping"},
		{"https://xn--strae-oqa.example/ok", true, "the A-label of an allowed origin"},
		{"https://XN--STRAE-OQA.example/ok", true, "an A-label in capitals"},
		{"https://straße.example./ok", false, "a trailing dot is another origin"},
		{"https://shop.info.example./ok", false, "a trailing dot is another origin"},
		{"https://shop.info.example\uff0e/ok", false, "a trailing fullwidth dot"},
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

// TestOriginsAreCanonicalHostsOnly: originOf gives the ASCII origin of a host already in
// canonical form and nothing for a host that needs mapping, whatever the mapping would give.
func TestOriginsAreCanonicalHostsOnly(t *testing.T) {
	for raw, want := range map[string]string{
		"https://cla%E1%BA%9E.example/ok": "",
		"https://claẞ.example/ok":         "",
		"https://\u212a.example":          "",
		"https://İ.example":               "",
		"https://a\uff0eexample":          "",
		"https://ａ.example":               "",
		"https://\u2460.example":          "",
		"https://a\u00adb.example":        "",
		"https://claß.example/ok":         "https://xn--cla-7ka.example",
		"https://CAFé.example:8443/ok":    "https://xn--caf-dma.example:8443",
		"https://XN--CAF-DMA.example:443": "https://xn--caf-dma.example",
		"HTTPS://Shop.Example":            "https://shop.example",
	} {
		if got := originOf(raw); got != want {
			t.Errorf("originOf(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestIDNATablesArePinned: the origin check refuses every host its tables do not call valid,
// so a browser's newer tables can only make it refuse more, unless a code point valid here is
// mapped or disallowed there. The tables change under the code (golang.org/x/net/idna picks
// them by Go release: 15.0 before Go 1.27, 17.0 from it; the package's rules branch on the
// unicode package's version too), so a change must fail here: read what UTS #46 changed between
// the versions and rerun this file's cases before moving the pin.
func TestIDNATablesArePinned(t *testing.T) {
	if idna.UnicodeVersion != "15.0.0" || unicode.Version != "15.0.0" {
		t.Fatalf("IDNA tables of Unicode %s, unicode package %s; the origin check was reviewed for 15.0.0 and 15.0.0", idna.UnicodeVersion, unicode.Version)
	}
}

// TestLookAlikeOriginsAreRefusedOnEveryRoute: a page on a look-alike of the key's origin is
// refused on a browser route and its preflight is refused, an Origin that would need mapping is
// refused even when it maps onto the allowed origin, and a checkout session redirecting to a
// look-alike is refused before it reaches checkout; the allowed origin in ASCII capitals is
// served as the allowed origin.
func TestLookAlikeOriginsAreRefusedOnEveryRoute(t *testing.T) {
	h := newHarness(t, Limits{})
	const shop = "https://shop.info.example"
	key, err := apikey.Generate(apikey.Publishable, apikey.Live)
	if err != nil {
		t.Fatal(err)
	}
	h.auth.mu.Lock()
	h.auth.keys[apikey.Hash(key)] = keys.Key{ID: "key_" + randomHex(6), OrganizerID: "org_" + randomHex(6), Type: apikey.Publishable, AllowedOrigins: []string{shop, "https://class.example"}}
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
	wantStatus(t, res, http.StatusForbidden, "")
	res = h.do(t, call{method: "POST", path: "/browser/events/search", addr: newAddr(), body: "{}", headers: page("https://SHOP.Info.example")})
	if res.status != http.StatusOK || res.header.Get("Access-Control-Allow-Origin") != shop {
		t.Fatalf("the allowed origin in ASCII capitals: %d, Access-Control-Allow-Origin %q: %s", res.status, res.header.Get("Access-Control-Allow-Origin"), res.body)
	}

	for _, successURL := range []string{lookAlike + "/ok", "https://cla%E1%BA%9E.example/ok"} {
		session := apispectest.Minimal(opCheckoutSession)
		session["successUrl"], session["cancelUrl"] = successURL, shop+"/cart"
		before := len(h.owner.requests())
		res = h.do(t, call{method: "POST", path: "/browser/checkout/registration/session", addr: newAddr(), body: string(apispectest.Encode(session)), headers: page(shop)})
		wantStatus(t, res, http.StatusBadRequest, "")
		if !strings.Contains(string(res.body), `"path":"successUrl","code":"redirect_not_allowed"`) || len(h.owner.requests()) != before {
			t.Fatalf("a checkout session redirecting to %s: %s (%d requests reached checkout, %d before)", successURL, res.body, len(h.owner.requests()), before)
		}
	}
}

// FuzzOriginOf: whatever the URL, its origin is empty or lowercase ASCII that is its own origin,
// so comparing two of them compares the hosts browsers reach.
func FuzzOriginOf(f *testing.F) {
	for _, seed := range []string{
		"https://shop.info.example/ok", "https://shop.İnfo.example/ok", "https://shop.info\uff0eexample",
		"https://\u212aey.example", "https://straße.example", "https://shop.info.example.", "https://%C4%B0.example",
		"https://%73hop.example", "https://xn--zz.example", "https://XN--STRAE-OQA.example:443", "http://[::1]:80",
		"https://" + strings.Repeat("é", 64) + ".example", "https://ｓｈｏｐ。example", "https://a\u200db.example",
		"https://cla%E1%BA%9E.example", "https://claẞ.example", "https://CAFÉ.example", "https://CAFé.example", "https://cafe\u0301.example",
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
