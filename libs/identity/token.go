package identity

import (
	"crypto/ed25519"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/golang-lru/v2/expirable"
)

const leeway = 5 * time.Second

type claims struct {
	jwt.RegisteredClaims
	Principal
}

// Signer mints the tokens of one issuing service, reusing each for half its lifetime.
type Signer struct {
	issuer string
	key    ed25519.PrivateKey
	kid    string
	ttl    time.Duration
	mu     sync.RWMutex
	minted map[string]minted
}

// minted is a token and when it stops being handed out.
type minted struct {
	token string
	until time.Time
}

// maxMinted bounds the tokens a Signer keeps; past it, it starts again from none.
const maxMinted = 100_000

// NewSigner returns a Signer for the service named issuer whose tokens live for ttl.
func NewSigner(issuer string, key ed25519.PrivateKey, ttl time.Duration) *Signer {
	return &Signer{
		issuer: issuer,
		key:    key,
		kid:    keyID(key.Public().(ed25519.PublicKey)),
		ttl:    ttl,
		minted: map[string]minted{},
	}
}

// Token returns a token for a call to the service named audience on p's behalf, valid for at
// least half its lifetime. A token in hand costs a map lookup under a read lock, without an
// allocation: the gateway asks for one on every request.
func (s *Signer) Token(audience string, p Principal) (string, error) {
	var buf [256]byte
	k := p.appendCacheKey(append(append(buf[:0], audience...), 0))
	now := time.Now()
	s.mu.RLock()
	m, ok := s.minted[string(k)]
	s.mu.RUnlock()
	if ok && now.Before(m.until) {
		return m.token, nil
	}
	t := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    s.issuer,
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
	s.mu.Lock()
	if len(s.minted) >= maxMinted {
		clear(s.minted)
	}
	s.minted[string(k)] = minted{token: tok, until: now.Add(s.ttl / 2)}
	s.mu.Unlock()
	return tok, nil
}

// Verifier checks the tokens sent to one service against the keys of the issuers it trusts.
type Verifier struct {
	keys   map[string]issuerKey
	parser *jwt.Parser
	cache  *expirable.LRU[string, verified]
}

type issuerKey struct {
	issuer string
	key    ed25519.PublicKey
}

type verified struct {
	v   Verified
	exp time.Time
}

// NewVerifier returns a Verifier for the service named audience, accepting tokens for that
// audience signed by a key of trusted whose token names that key's issuer; maxTTL bounds how
// long a verified token is remembered (the longest lifetime of its callers' tokens).
func NewVerifier(audience string, trusted TrustedKeys, maxTTL time.Duration) *Verifier {
	v := &Verifier{
		keys: map[string]issuerKey{},
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}),
			jwt.WithAudience(audience),
			jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(leeway),
		),
		cache: expirable.NewLRU[string, verified](100_000, nil, maxTTL),
	}
	for issuer, keys := range trusted {
		for _, k := range keys {
			v.keys[keyID(k)] = issuerKey{issuer: issuer, key: k}
		}
	}
	return v
}

// Verify returns what a valid token says, or ErrInvalidToken. token may be a view of a buffer
// the caller reuses (Fiber's headers are): the cache keeps its own copy.
func (v *Verifier) Verify(token string) (Verified, error) {
	if hit, ok := v.cache.Get(token); ok {
		if time.Now().Before(hit.exp.Add(leeway)) {
			return hit.v, nil
		}
		v.cache.Remove(token)
		return Verified{}, ErrInvalidToken
	}
	var (
		c      claims
		signer issuerKey
	)
	_, err := v.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		k, ok := v.keys[kid]
		if !ok {
			return nil, fmt.Errorf("unknown key id %q", kid)
		}
		signer = k
		return k.key, nil
	})
	// A token names its issuer, and only that issuer's keys may have signed it: one trusted
	// service cannot speak as another.
	if err != nil || c.Issuer != signer.issuer || c.KeyType == "" || c.KeyID == "" {
		return Verified{}, ErrInvalidToken
	}
	out := Verified{Issuer: c.Issuer, Principal: c.Principal}
	v.cache.Add(strings.Clone(token), verified{v: out, exp: c.ExpiresAt.Time})
	return out, nil
}
