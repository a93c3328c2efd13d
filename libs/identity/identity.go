// Package identity is the internal identity token: a service calling another signs, with its
// own Ed25519 key, who the call is made for (organizer, key, key type, scopes, origin), names
// itself as the token's issuer and the service it calls as its audience. The gateway signs
// every routed request; checkout and registration sign their calls to their peers. A service
// accepts only tokens for itself, signed by an issuer it holds a public key of, and each route
// group names the callers it accepts.
//
// Signing and verifying cost tens of microseconds, so the Signer mints one token per audience
// and principal and reuses it for half its lifetime, and the Verifier checks each distinct token
// once and remembers the result until the token expires.
package identity

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Header carries the token on requests between services.
const Header = "X-Podium-Identity"

// HeaderClientIP carries the client address the gateway determined; owners trust it only on
// requests with a valid token, and the gateway drops any value a client sends.
const HeaderClientIP = "X-Podium-Client-Ip"

// Service names: each is the audience of the tokens sent to that service and the issuer of the
// tokens it signs.
const (
	Gateway      = "gateway"
	Auth         = "auth"
	Catalog      = "catalog"
	Registration = "registration"
	Checkout     = "checkout"
	Webhooks     = "webhooks"
)

// KeyType says what kind of credential authenticated the caller.
type KeyType string

// Key types.
const (
	Secret      KeyType = "secret"
	Publishable KeyType = "publishable"
	// Service is a platform service calling another on its own behalf (the gateway asking auth
	// about a key, or routing Stripe's webhook).
	Service KeyType = "service"
)

// Principal is who a request is made for.
type Principal struct {
	OrganizerID string   `json:"org,omitempty"`
	KeyID       string   `json:"key"`
	KeyType     KeyType  `json:"typ"`
	Scopes      []string `json:"scp,omitempty"`
	// Origin is the browser origin a publishable key was used from.
	Origin string `json:"ori,omitempty"`
	// Test says the key is a test-mode key: the request reads and writes test data only, kept
	// apart from live data as another organizer's is.
	Test bool `json:"tst,omitempty"`
}

// Livemode reports whether the request works on live data.
func (p Principal) Livemode() bool { return !p.Test }

// HasScope reports whether p was granted scope.
func (p Principal) HasScope(scope string) bool { return slices.Contains(p.Scopes, scope) }

// appendCacheKey appends what identifies a principal for token reuse to b.
func (p Principal) appendCacheKey(b []byte) []byte {
	for _, part := range [...]string{p.OrganizerID, p.KeyID, string(p.KeyType), p.Origin} {
		b = append(append(b, part...), 0)
	}
	if p.Test {
		b = append(b, 't', 0)
	}
	for _, scope := range p.Scopes {
		b = append(append(b, scope...), ',')
	}
	return b
}

// Verified is what a valid token says: the service that sent it and for whom.
type Verified struct {
	// Issuer is the calling service.
	Issuer string
	Principal
}

// ErrInvalidToken is returned for a token that is malformed, forged, expired, meant for another
// service or signed by an issuer this service does not trust.
var ErrInvalidToken = errors.New("identity: invalid token")

// GenerateKey returns a new key pair encoded for the environment (standard base64 of the
// 32-byte public key and of the 32-byte private seed).
func GenerateKey() (public, private string, err error) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return "", "", err
	}
	return base64.StdEncoding.EncodeToString(pub), base64.StdEncoding.EncodeToString(priv.Seed()), nil
}

// ParsePrivateKey decodes a base64 private seed.
func ParsePrivateKey(s string) (ed25519.PrivateKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.SeedSize {
		return nil, fmt.Errorf("identity: private key must be the base64 of a %d-byte Ed25519 seed", ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(b), nil
}

// keyID names a public key in the token header so verifiers pick the right one.
func keyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}
