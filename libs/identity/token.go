package identity

import (
	"crypto/ed25519"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/golang-lru/v2/expirable"
)

const (
	issuer   = "podium-gateway"
	audience = "podium-internal"
	leeway   = 5 * time.Second
)

type claims struct {
	jwt.RegisteredClaims
	Principal
}

// Signer mints tokens for principals, reusing each for half its lifetime.
type Signer struct {
	key   ed25519.PrivateKey
	kid   string
	ttl   time.Duration
	cache *expirable.LRU[string, string]
}

// NewSigner returns a Signer whose tokens live for ttl.
func NewSigner(key ed25519.PrivateKey, ttl time.Duration) *Signer {
	return &Signer{
		key:   key,
		kid:   keyID(key.Public().(ed25519.PublicKey)),
		ttl:   ttl,
		cache: expirable.NewLRU[string, string](100_000, nil, ttl/2),
	}
}

// Token returns a valid token for p with at least half its lifetime left.
func (s *Signer) Token(p Principal) (string, error) {
	k := p.cacheKey()
	if tok, ok := s.cache.Get(k); ok {
		return tok, nil
	}
	now := time.Now()
	t := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Audience:  jwt.ClaimStrings{audience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.ttl)),
		},
		Principal: p,
	})
	t.Header["kid"] = s.kid
	tok, err := t.SignedString(s.key)
	if err != nil {
		return "", fmt.Errorf("identity: sign: %w", err)
	}
	s.cache.Add(k, tok)
	return tok, nil
}

// Verifier checks tokens against the gateway's public keys.
type Verifier struct {
	keys   map[string]ed25519.PublicKey
	parser *jwt.Parser
	cache  *expirable.LRU[string, verified]
}

type verified struct {
	p   Principal
	exp time.Time
}

// NewVerifier returns a Verifier accepting tokens signed by any of keys; maxTTL bounds how
// long a verified token is remembered (the signer's token lifetime).
func NewVerifier(keys []ed25519.PublicKey, maxTTL time.Duration) *Verifier {
	v := &Verifier{
		keys: make(map[string]ed25519.PublicKey, len(keys)),
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}),
			jwt.WithIssuer(issuer), jwt.WithAudience(audience),
			jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(leeway),
		),
		cache: expirable.NewLRU[string, verified](100_000, nil, maxTTL),
	}
	for _, k := range keys {
		v.keys[keyID(k)] = k
	}
	return v
}

// Verify returns the principal of a valid token, or ErrInvalidToken. token may be a view of a
// buffer the caller reuses (Fiber's headers are): the cache keeps its own copy.
func (v *Verifier) Verify(token string) (Principal, error) {
	if hit, ok := v.cache.Get(token); ok {
		if time.Now().Before(hit.exp.Add(leeway)) {
			return hit.p, nil
		}
		v.cache.Remove(token)
		return Principal{}, ErrInvalidToken
	}
	var c claims
	_, err := v.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		if k, ok := v.keys[kid]; ok {
			return k, nil
		}
		return nil, fmt.Errorf("unknown key id %q", kid)
	})
	if err != nil || c.KeyType == "" || c.KeyID == "" {
		return Principal{}, ErrInvalidToken
	}
	v.cache.Add(strings.Clone(token), verified{p: c.Principal, exp: c.ExpiresAt.Time})
	return c.Principal, nil
}
