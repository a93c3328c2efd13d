package e2e

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/system/stack"
)

const site = "https://shop.example"

// TestAuthenticationFailures walks every way a credential can be refused, through the gateway.
func TestAuthenticationFailures(t *testing.T) {
	ctx := t.Context()
	org := newOrganizer(t)
	all := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	reader := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: []string{"events:read"}})
	pub := newKey(t, org, stack.KeySpec{Type: "publishable", Origins: []string{site}})
	revoked := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes})
	if err := sys.RevokeKey(ctx, revoked.ID); err != nil {
		t.Fatal(err)
	}
	unknown, _ := apikey.Generate(apikey.Secret, apikey.Live)
	badChecksum := all.Key[:len(all.Key)-1] + flip(all.Key[len(all.Key)-1])

	search := gw("/organizer/events/search")
	pricing := gw("/organizer/events/evt_missing/pricing-cards")
	browserSearch := gw("/browser/events/search")
	cases := []struct {
		name    string
		r       req
		status  int
		message string
		code    string
	}{
		{"no key", req{"POST", search, nil, "{}"}, 401, "missing API key", "key_missing"},
		{"malformed key", req{"POST", search, secret("pdm_sk_live_tooshort"), "{}"}, 401, "malformed API key", "key_malformed"},
		{"foreign prefix", req{"POST", search, secret("sk_live_" + all.Key[12:]), "{}"}, 401, "malformed API key", "key_malformed"},
		{"bad checksum", req{"POST", search, secret(badChecksum), "{}"}, 401, "checksum mismatch", "key_malformed"},
		{"unknown key", req{"POST", search, secret(unknown), "{}"}, 401, "unknown API key", "key_unknown"},
		{"revoked key", req{"POST", search, secret(revoked.Key), "{}"}, 401, "revoked", "key_revoked"},
		{"not a bearer token", req{"POST", search, map[string]string{"Authorization": "Basic " + all.Key}, "{}"}, 401, "Bearer scheme", "key_malformed"},
		{"missing scope", req{"GET", pricing, secret(reader.Key), nil}, 403, "lacks the pricing:read scope", "scope_missing"},
		{"publishable key as bearer on an organizer path", req{"POST", search, secret(pub.Key), "{}"}, 403, "publishable keys work only on /external/v1/browser", "key_wrong_surface"},
		{"publishable header on an organizer path", req{"POST", search, browser(pub.Key, site), "{}"}, 403, "publishable keys work only", "key_wrong_surface"},
		{"secret key as publishable key", req{"POST", browserSearch, browser(all.Key, site), "{}"}, 403, "secret keys are refused on browser endpoints", "key_wrong_surface"},
		{"secret key as bearer on a browser path", req{"POST", browserSearch, map[string]string{"Authorization": "Bearer " + all.Key, "Origin": site}, "{}"}, 403, "secret keys are refused", "key_wrong_surface"},
		{"no publishable key", req{"POST", browserSearch, map[string]string{"Origin": site}, "{}"}, 401, "missing publishable key", "key_missing"},
		{"no Origin", req{"POST", browserSearch, browser(pub.Key, ""), "{}"}, 403, "the Origin header is required", "origin_missing"},
		{"Origin not allowed", req{"POST", browserSearch, browser(pub.Key, "https://evil.example"), "{}"}, 403, "origin https://evil.example is not allowed for this publishable key", "origin_not_allowed"},
		{"Origin differing by port", req{"POST", browserSearch, browser(pub.Key, site+":8443"), "{}"}, 403, "is not allowed", "origin_not_allowed"},
		{"preflight without Origin", req{"OPTIONS", browserSearch, map[string]string{"Access-Control-Request-Method": "POST"}, nil}, 403, "the Origin header is required", "origin_missing"},
		{"preflight from a disallowed origin", req{"OPTIONS", browserSearch, map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, nil}, 403, "not allowed by any publishable key", "origin_not_allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, tc.r)
			wantError(t, res, tc.status, tc.message)
			wantCode(t, res, tc.status, tc.code)
			if tc.r.method == "OPTIONS" && res.header.Get("Access-Control-Allow-Origin") != "" {
				t.Fatal("a refused preflight carries Access-Control-Allow-Origin")
			}
		})
	}

	t.Run("valid keys pass", func(t *testing.T) {
		if res := do(t, req{"POST", search, secret(all.Key), "{}"}); res.status != 201 {
			t.Fatalf("secret key: %d %s", res.status, res.body)
		}
		if res := do(t, req{"POST", search, map[string]string{"x-api-key": reader.Key}, "{}"}); res.status != 201 {
			t.Fatalf("x-api-key header: %d %s", res.status, res.body)
		}
		res := do(t, req{"POST", browserSearch, browser(pub.Key, site), "{}"})
		if res.status != 201 || res.header.Get("Access-Control-Allow-Origin") != site || res.header.Get("Vary") != "Origin, X-Publishable-Key" {
			t.Fatalf("publishable key: %d, ACAO %q, Vary %q", res.status, res.header.Get("Access-Control-Allow-Origin"), res.header.Get("Vary"))
		}
	})

	t.Run("preflight from an allowed origin", func(t *testing.T) {
		res := do(t, req{"OPTIONS", browserSearch, map[string]string{"Origin": site, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-publishable-key, content-type"}, nil})
		h := res.header
		if res.status != 204 || h.Get("Access-Control-Allow-Origin") != site || h.Get("Vary") != "Origin" ||
			h.Get("Access-Control-Allow-Headers") != "x-publishable-key, content-type" || h.Get("Access-Control-Allow-Methods") != "POST, OPTIONS" {
			t.Fatalf("preflight: %d %v", res.status, h)
		}
	})

	t.Run("a refusal is readable by an allowed page", func(t *testing.T) {
		res := do(t, req{"POST", browserSearch, browser(pub.Key[:20], site), "{}"})
		wantError(t, res, 401, "malformed API key")
		if res.header.Get("Access-Control-Allow-Origin") != site {
			t.Fatal("the page on an allowed origin cannot read why it was refused")
		}
	})
}

// TestExpiredKeyIsRefusedOnTheNextRequest shows expiry is checked on every request, even for a
// key the gateway has cached: the key works, then is refused with its expiry, never before it.
// The stack runs on the wall clock, so the expiry is a few seconds from now and the test polls
// for the refusal.
func TestExpiredKeyIsRefusedOnTheNextRequest(t *testing.T) {
	org := newOrganizer(t)
	expires := time.Now().Add(5 * time.Second).Truncate(time.Second)
	k := newKey(t, org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes, Expires: expires})
	search := req{"POST", gw("/organizer/events/search"), secret(k.Key), "{}"}
	if res := do(t, search); res.status != 201 {
		t.Fatalf("before expiry: %d %s", res.status, res.body)
	}
	res := awaitAnswer(t, func() response {
		res := do(t, search)
		if answered := time.Now(); res.status == 401 && answered.Before(expires) {
			t.Fatalf("refused by %v, before its expiry at %v: %s", answered, expires, res.body)
		}
		return res
	}, func(r response) bool { return r.status == 401 })
	wantError(t, res, 401, "this API key expired at "+expires.UTC().Format(time.RFC3339))
	wantCode(t, res, 401, "key_expired")
}

func flip(c byte) string {
	if c == 'a' {
		return "b"
	}
	return "a"
}
