// Package identitytest gives tests a key pair and a signer per calling service (the gateway,
// checkout, registration, auth and webhooks) and the trusted keys that name them all, so a
// service under test can be sent a token from any caller, and its route groups' caller checks
// tested on their own.
package identitytest

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
)

// Issuers holds one signer per calling service.
type Issuers struct {
	signers map[string]*identity.Signer
	// Keys trusts every issuer's public key.
	Keys identity.TrustedKeys
	// Private holds each issuer's private key as its IDENTITY_PRIVATE_KEY setting.
	Private map[string]string
}

// Signing are the services that sign tokens.
var Signing = []string{identity.Gateway, identity.Checkout, identity.Registration, identity.Auth, identity.Webhooks}

// New makes a key pair and a signer, with one-minute tokens, for each service in Signing.
func New(t testing.TB) *Issuers {
	t.Helper()
	i := &Issuers{signers: map[string]*identity.Signer{}, Keys: identity.TrustedKeys{}, Private: map[string]string{}}
	for _, name := range Signing {
		pub, priv, err := identity.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		key, err := identity.ParsePrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		keys, err := identity.ParseTrustedKeys(name + ":" + pub)
		if err != nil {
			t.Fatal(err)
		}
		i.Keys[name] = keys[name]
		i.Private[name] = priv
		i.signers[name] = identity.NewSigner(name, key, time.Minute)
	}
	return i
}

// Signer returns the signer of the service named issuer.
func (i *Issuers) Signer(issuer string) *identity.Signer { return i.signers[issuer] }

// Verifier returns a verifier for the service named audience that trusts every issuer.
func (i *Issuers) Verifier(audience string) *identity.Verifier {
	return identity.NewVerifier(audience, i.Keys, time.Minute)
}

// Token mints a token from issuer to audience for p, failing the test on an error.
func (i *Issuers) Token(t testing.TB, issuer, audience string, p identity.Principal) string {
	t.Helper()
	tok, err := i.signers[issuer].Token(audience, p)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
