package identity_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/podiumhq/podium/libs/identity"
)

var alice = identity.Principal{OrganizerID: "org_1", KeyID: "key_1", KeyType: identity.Secret, Scopes: []string{"events:read"}}

// keyPair returns a new private key and its public half as base64.
func keyPair(t testing.TB) (ed25519.PrivateKey, string) {
	pub, priv, err := identity.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	sk, err := identity.ParsePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return sk, pub
}

// trust parses issuer:key entries for a test, failing it on an error.
func trust(t testing.TB, entries ...string) identity.TrustedKeys {
	keys, err := identity.ParseTrustedKeys(strings.Join(entries, ","))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// gatewayToCatalog returns the gateway's signer and the catalog's verifier trusting it.
func gatewayToCatalog(t testing.TB) (*identity.Signer, *identity.Verifier) {
	sk, pub := keyPair(t)
	return identity.NewSigner(identity.Gateway, sk, time.Minute), identity.NewVerifier(identity.Catalog, trust(t, "gateway:"+pub), time.Minute)
}

func TestTokenRoundTripAndReuse(t *testing.T) {
	s, v := gatewayToCatalog(t)
	tok, err := s.Token(identity.Catalog, alice)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Token(identity.Catalog, alice)
	if again != tok {
		t.Fatal("the signer minted a second token for the same audience and principal within its half-life")
	}
	other := alice
	other.Origin = "https://shop.example"
	if tok2, _ := s.Token(identity.Catalog, other); tok2 == tok {
		t.Fatal("a principal with another origin got the same token")
	}
	test := alice
	test.Test = true
	testTok, _ := s.Token(identity.Catalog, test)
	if testTok == tok {
		t.Fatal("a test-mode principal got the live principal's token")
	}
	if got, err := v.Verify(testTok); err != nil || !got.Test || got.Livemode() {
		t.Fatalf("verified test principal %+v, %v", got, err)
	}
	if tok3, _ := s.Token(identity.Registration, alice); tok3 == tok {
		t.Fatal("a token for another audience was reused")
	}
	for range 2 { // the second call is served from the verifier's cache
		got, err := v.Verify(tok)
		if err != nil {
			t.Fatal(err)
		}
		p := got.Principal
		if got.Issuer != identity.Gateway || p.OrganizerID != "org_1" || p.KeyID != "key_1" || p.KeyType != identity.Secret ||
			!p.HasScope("events:read") || p.HasScope("pricing:read") || !p.Livemode() {
			t.Fatalf("verified %+v", got)
		}
	}
}

func TestVerifyRefusesBadTokens(t *testing.T) {
	gatewaySK, gatewayPub := keyPair(t)
	checkoutSK, checkoutPub := keyPair(t)
	strangerSK, _ := keyPair(t)
	v := identity.NewVerifier(identity.Catalog, trust(t, "gateway:"+gatewayPub, "checkout:"+checkoutPub), time.Minute)
	gateway := identity.NewSigner(identity.Gateway, gatewaySK, time.Minute)
	good, _ := gateway.Token(identity.Catalog, alice)
	fromCheckout, _ := identity.NewSigner(identity.Checkout, checkoutSK, time.Minute).Token(identity.Catalog, alice)
	forAnother, _ := gateway.Token(identity.Registration, alice)
	untrusted, _ := identity.NewSigner(identity.Registration, strangerSK, time.Minute).Token(identity.Catalog, alice)
	forged, _ := identity.NewSigner(identity.Gateway, strangerSK, time.Minute).Token(identity.Catalog, alice)
	impersonating, _ := identity.NewSigner(identity.Gateway, checkoutSK, time.Minute).Token(identity.Catalog, alice)
	expired, _ := identity.NewSigner(identity.Gateway, gatewaySK, -time.Minute).Token(identity.Catalog, alice)
	hmac, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "gateway", "aud": "catalog", "exp": time.Now().Add(time.Minute).Unix(), "key": "k", "typ": "secret",
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
		"for another audience": forAnother, "from an untrusted issuer": untrusted,
		"checkout's key naming the gateway as issuer": impersonating,
		"expired": expired, "HMAC instead of EdDSA": hmac, "tampered claims": tampered,
	} {
		if _, err := v.Verify(tok); err == nil {
			t.Errorf("%s token verified", name)
		}
	}
	for name, c := range map[string]struct{ tok, issuer string }{"gateway": {good, "gateway"}, "checkout": {fromCheckout, "checkout"}} {
		got, err := v.Verify(c.tok)
		if err != nil || got.Issuer != c.issuer {
			t.Fatalf("the %s token after the bad ones: %+v %v", name, got, err)
		}
	}
}

func TestVerifierAcceptsEveryListedKeyOfAnIssuerDuringRotation(t *testing.T) {
	oldSK, oldPub := keyPair(t)
	newSK, newPub := keyPair(t)
	during := identity.NewVerifier(identity.Auth, trust(t, "gateway:"+oldPub, "gateway:"+newPub), time.Minute)
	after := identity.NewVerifier(identity.Auth, trust(t, "gateway:"+newPub), time.Minute)
	oldTok, _ := identity.NewSigner(identity.Gateway, oldSK, time.Minute).Token(identity.Auth, alice)
	newTok, _ := identity.NewSigner(identity.Gateway, newSK, time.Minute).Token(identity.Auth, alice)
	for _, tok := range []string{oldTok, newTok} {
		if _, err := during.Verify(tok); err != nil {
			t.Fatalf("rotation: %v", err)
		}
	}
	if _, err := after.Verify(newTok); err != nil {
		t.Fatalf("the new key after rotation: %v", err)
	}
	if _, err := after.Verify(oldTok); err == nil {
		t.Fatal("a token of the removed key verified after rotation")
	}
}

func TestParseTrustedKeys(t *testing.T) {
	_, a := keyPair(t)
	_, b := keyPair(t)
	keys, err := identity.ParseTrustedKeys(" gateway:"+a+", gateway:"+b+",checkout:"+a, "gateway")
	if err == nil {
		t.Fatalf("one key listed for two issuers was accepted: %v", keys)
	}
	keys, err = identity.ParseTrustedKeys(" gateway:"+a+", checkout:"+b+",gateway:"+a, identity.Gateway, identity.Checkout)
	if err != nil || len(keys["gateway"]) != 1 || len(keys["checkout"]) != 1 {
		t.Fatalf("keys %v, %v", keys, err)
	}
	if again, err := identity.ParseTrustedKeys(keys.String()); err != nil || again.String() != keys.String() || keys.String() != "checkout:"+b+",gateway:"+a {
		t.Fatalf("String %q does not read back: %v", keys.String(), err)
	}
	for name, c := range map[string]struct{ in, want string }{
		"empty":            {"", "no trusted key"},
		"no issuer":        {a, "must be issuer:base64-key"},
		"blank issuer":     {":" + a, "must be issuer:base64-key"},
		"not base64":       {"gateway:!!", "the key of gateway"},
		"short key":        {"gateway:c2hvcnQ=", "the key of gateway"},
		"required missing": {"checkout:" + b, "no key of gateway is listed"},
	} {
		if _, err := identity.ParseTrustedKeys(c.in, identity.Gateway); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
	if _, err := identity.ParsePrivateKey("c2hvcnQ="); err == nil {
		t.Error("short private key accepted")
	}
}

func FuzzVerify(f *testing.F) {
	s, v := gatewayToCatalog(f)
	good, _ := s.Token(identity.Catalog, alice)
	f.Add(good)
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Fuzz(func(t *testing.T, tok string) {
		p, err := v.Verify(tok)
		if err == nil && tok != good {
			t.Fatalf("verified a token the signer never made: %q -> %+v", tok, p)
		}
	})
}

func BenchmarkSignCached(b *testing.B) {
	s, _ := gatewayToCatalog(b)
	for b.Loop() {
		_, _ = s.Token(identity.Catalog, alice)
	}
}

func BenchmarkVerifyCached(b *testing.B) {
	s, v := gatewayToCatalog(b)
	tok, _ := s.Token(identity.Catalog, alice)
	for b.Loop() {
		_, _ = v.Verify(tok)
	}
}

func BenchmarkVerifyUncached(b *testing.B) {
	sk, pub := keyPair(b)
	tok, _ := identity.NewSigner(identity.Gateway, sk, time.Minute).Token(identity.Catalog, alice)
	keys := trust(b, "gateway:"+pub)
	for b.Loop() {
		_, _ = identity.NewVerifier(identity.Catalog, keys, time.Minute).Verify(tok)
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

func TestClientPrefixGroupsIPv6ByTheGivenPrefix(t *testing.T) {
	for addr, want := range map[string]string{
		"203.0.113.7":             "203.0.113.7",
		"::ffff:203.0.113.7":      "203.0.113.7",
		"2001:db8:1:2:3:4:5:6":    "2001:db8:1::/48",
		"2001:db8:1:ffff:ffff::1": "2001:db8:1::/48",
		"2001:db8:2:2:3:4:5:6":    "2001:db8:2::/48",
		"not an address":          "not an address",
	} {
		if got := identity.ClientPrefix(addr, 48); got != want {
			t.Errorf("ClientPrefix(%q, 48) = %q, want %q", addr, got, want)
		}
	}
}
