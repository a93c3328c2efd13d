package identity_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
)

var alice = identity.Principal{OrganizerID: "org_1", KeyID: "key_1", KeyType: identity.Secret, Scopes: []string{"events:read"}}

func keys(t testing.TB) (ed25519.PrivateKey, []ed25519.PublicKey) {
	pub, priv, err := identity.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	sk, err := identity.ParsePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	pks, err := identity.ParsePublicKeys(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sk, pks
}

func TestTokenRoundTripAndReuse(t *testing.T) {
	sk, pks := keys(t)
	s := identity.NewSigner(sk, time.Minute)
	v := identity.NewVerifier(pks, time.Minute)

	tok, err := s.Token(alice)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Token(alice)
	if again != tok {
		t.Fatal("the signer minted a second token for the same principal within its half-life")
	}
	other := alice
	other.Origin = "https://shop.example"
	if tok2, _ := s.Token(other); tok2 == tok {
		t.Fatal("a principal with another origin got the same token")
	}
	for range 2 { // the second call is served from the verifier's cache
		p, err := v.Verify(tok)
		if err != nil {
			t.Fatal(err)
		}
		if p.OrganizerID != "org_1" || p.KeyID != "key_1" || p.KeyType != identity.Secret || !p.HasScope("events:read") || p.HasScope("pricing:read") {
			t.Fatalf("verified principal %+v", p)
		}
	}
}

func TestVerifyRefusesBadTokens(t *testing.T) {
	sk, pks := keys(t)
	otherSK, _ := keys(t)
	v := identity.NewVerifier(pks, time.Minute)
	good, _ := identity.NewSigner(sk, time.Minute).Token(alice)
	forged, _ := identity.NewSigner(otherSK, time.Minute).Token(alice)
	expired, _ := identity.NewSigner(sk, -time.Minute).Token(alice)
	hmac, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "podium-gateway", "aud": "podium-internal", "exp": time.Now().Add(time.Minute).Unix(), "key": "k", "typ": "secret",
	}).SignedString([]byte("guessable"))
	parts := strings.Split(good, ".")
	claims := map[string]any{}
	raw, _ := jwt.NewParser().DecodeSegment(parts[1])
	_ = json.Unmarshal(raw, &claims)
	claims["org"] = "org_2"
	tamperedBody, _ := json.Marshal(claims)
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(tamperedBody) + "." + parts[2]

	for name, tok := range map[string]string{
		"empty": "", "garbage": "not.a.token", "forged with another key": forged,
		"expired": expired, "HMAC instead of EdDSA": hmac, "tampered claims": tampered,
	} {
		if _, err := v.Verify(tok); err == nil {
			t.Errorf("%s token verified", name)
		}
	}
	if _, err := v.Verify(good); err != nil {
		t.Fatalf("the good token failed after the bad ones: %v", err)
	}
}

func TestVerifierAcceptsEveryConfiguredKeyDuringRotation(t *testing.T) {
	oldSK, oldPK := keys(t)
	newSK, newPK := keys(t)
	v := identity.NewVerifier(append(oldPK, newPK...), time.Minute)
	for _, sk := range []ed25519.PrivateKey{oldSK, newSK} {
		tok, _ := identity.NewSigner(sk, time.Minute).Token(alice)
		if _, err := v.Verify(tok); err != nil {
			t.Fatalf("rotation: %v", err)
		}
	}
}

func TestParseKeysRejectsMalformed(t *testing.T) {
	if _, err := identity.ParsePrivateKey("c2hvcnQ="); err == nil {
		t.Error("short private key accepted")
	}
	if _, err := identity.ParsePublicKeys("!!"); err == nil {
		t.Error("non-base64 public key accepted")
	}
}

func TestMiddlewareGuardsRoutes(t *testing.T) {
	sk, pks := keys(t)
	s := identity.NewSigner(sk, time.Minute)
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1024, DisableTracing: true})
	srv.App.Use(identity.Middleware(identity.NewVerifier(pks, time.Minute)))
	srv.App.Get("/organizer", identity.RequireType(identity.Secret), identity.RequireScope("events:read"),
		func(c *fiber.Ctx) error {
			return c.SendString(identity.From(c).OrganizerID + " " + identity.ClientIP(c))
		})

	pub := alice
	pub.KeyType, pub.Scopes = identity.Publishable, nil
	noScope := alice
	noScope.Scopes = []string{"pricing:read"}
	tok := func(p identity.Principal) string { s, _ := s.Token(p); return s }

	cases := []struct {
		name, token string
		status      int
		body        string
	}{
		{"no token", "", 401, "this service is reached through the gateway only"},
		{"bad token", "x.y.z", 401, "the internal identity token is invalid or expired"},
		{"publishable on an organizer route", tok(pub), 403, "this route does not accept publishable credentials"},
		{"missing scope", tok(noScope), 403, "the API key lacks the events:read scope"},
		{"valid", tok(alice), 200, "org_1 203.0.113.9"},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("GET", "/organizer", nil)
		if tc.token != "" {
			req.Header.Set(identity.Header, tc.token)
		}
		req.Header.Set(identity.HeaderClientIP, "203.0.113.9")
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := string(raw)
		if res.StatusCode >= 400 {
			var b httpserver.Body
			_ = json.Unmarshal(raw, &b)
			body, _ = b.Message.(string)
		}
		if res.StatusCode != tc.status || body != tc.body {
			t.Errorf("%s: %d %q, want %d %q", tc.name, res.StatusCode, body, tc.status, tc.body)
		}
	}
}

func FuzzVerify(f *testing.F) {
	sk, pks := keys(f)
	good, _ := identity.NewSigner(sk, time.Minute).Token(alice)
	f.Add(good)
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	v := identity.NewVerifier(pks, time.Minute)
	f.Fuzz(func(t *testing.T, tok string) {
		p, err := v.Verify(tok)
		if err == nil && tok != good {
			t.Fatalf("verified a token the signer never made: %q -> %+v", tok, p)
		}
	})
}

func BenchmarkSignCached(b *testing.B) {
	sk, _ := keys(b)
	s := identity.NewSigner(sk, time.Minute)
	for b.Loop() {
		_, _ = s.Token(alice)
	}
}

func BenchmarkVerifyCached(b *testing.B) {
	sk, pks := keys(b)
	tok, _ := identity.NewSigner(sk, time.Minute).Token(alice)
	v := identity.NewVerifier(pks, time.Minute)
	for b.Loop() {
		_, _ = v.Verify(tok)
	}
}

func BenchmarkVerifyUncached(b *testing.B) {
	sk, pks := keys(b)
	tok, _ := identity.NewSigner(sk, time.Minute).Token(alice)
	for b.Loop() {
		_, _ = identity.NewVerifier(pks, time.Minute).Verify(tok)
	}
}

// Fiber hands handlers views of buffers that later requests reuse: a verified token remembered
// by such a view would later read as another request's token and answer with this principal.
func TestMiddlewareKeepsPrincipalsApartOnOneConnection(t *testing.T) {
	sk, pks := keys(t)
	s := identity.NewSigner(sk, time.Minute)
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1024, DisableTracing: true})
	srv.App.Use(identity.Middleware(identity.NewVerifier(pks, time.Minute)))
	srv.App.Get("/who", func(c *fiber.Ctx) error { return c.SendString(identity.From(c).OrganizerID) })
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App.Listener(ln) }()
	t.Cleanup(func() { _ = srv.App.Shutdown() })

	bob := alice
	bob.OrganizerID, bob.KeyID = "org_2", "key_2" // same lengths, so the tokens are too
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	for i := range 6 {
		p := []identity.Principal{alice, bob}[i%2]
		tok, _ := s.Token(p)
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://"+ln.Addr().String()+"/who", nil)
		req.Header.Set(identity.Header, tok)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(got) != p.OrganizerID {
			t.Fatalf("request %d with %s's token was answered as %q", i, p.OrganizerID, got)
		}
	}
}

func TestClientNetworkGroupsIPv6By64(t *testing.T) {
	for addr, want := range map[string]string{
		"203.0.113.7":          "203.0.113.7",
		"::ffff:203.0.113.7":   "203.0.113.7",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"fe80::1%eth0":         "fe80::/64",
		"not an address":       "not an address",
	} {
		if got := identity.ClientNetwork(addr); got != want {
			t.Errorf("ClientNetwork(%q) = %q, want %q", addr, got, want)
		}
	}
}
