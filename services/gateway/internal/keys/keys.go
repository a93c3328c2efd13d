// Package keys resolves API keys for the gateway: a key's hash is looked up in auth once and
// cached; revocations pushed over Kafka evict it at once, expiry is checked on every request,
// and concurrent misses for one key share a single lookup.
package keys

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	"github.com/podiumhq/podium/libs/apikey"
)

// Key is what the gateway knows of an API key.
type Key struct {
	ID             string      `json:"id"`
	OrganizerID    string      `json:"organizerId"`
	Type           apikey.Type `json:"type"`
	Scopes         []string    `json:"scopes"`
	AllowedOrigins []string    `json:"allowedOrigins"`
	ExpiresAt      *time.Time  `json:"expiresAt"`
	RevokedAt      *time.Time  `json:"revokedAt"`
}

// Errors of Resolve.
var (
	ErrUnknown     = errors.New("keys: unknown key")
	ErrRevoked     = errors.New("keys: key revoked")
	ErrUnavailable = errors.New("keys: auth service unavailable")
)

// ExpiredError reports a key past its expiry.
type ExpiredError struct{ At time.Time }

func (e *ExpiredError) Error() string { return "keys: key expired at " + e.At.Format(time.RFC3339) }

// Source is where keys are looked up on a cache miss: the auth service.
type Source interface {
	// Lookup returns the key with this hash, or ErrUnknown.
	Lookup(ctx context.Context, hash string) (*Key, error)
	// OriginAllowed reports whether any active publishable key allows origin.
	OriginAllowed(ctx context.Context, origin string) (bool, error)
}

// Options sets cache lifetimes.
type Options struct {
	// TTL bounds how long a looked-up key is trusted without asking auth again; it is the
	// worst-case delay for a revocation whose Kafka event was lost.
	TTL time.Duration
	// NegativeTTL is how long an unknown hash is remembered.
	NegativeTTL time.Duration
	// OriginTTL is how long a preflight origin decision is remembered.
	OriginTTL time.Duration
}

// Store resolves key hashes.
type Store struct {
	src     Source
	ttl     time.Duration
	keys    *expirable.LRU[string, cached]
	unknown *expirable.LRU[string, struct{}]
	revoked *expirable.LRU[string, time.Time]
	origins *expirable.LRU[string, bool]
	flight  singleflight.Group
}

// NewStore returns a Store over src.
func NewStore(src Source, o Options) *Store {
	return &Store{
		src:     src,
		ttl:     o.TTL,
		keys:    expirable.NewLRU[string, cached](100_000, nil, o.TTL),
		unknown: expirable.NewLRU[string, struct{}](100_000, nil, o.NegativeTTL),
		revoked: expirable.NewLRU[string, time.Time](100_000, nil, o.TTL),
		origins: expirable.NewLRU[string, bool](10_000, nil, o.OriginTTL),
	}
}

// cached is a looked-up key and when it was looked up.
type cached struct {
	key *Key
	at  time.Time
}

// Resolve returns the active key with this hash, or ErrUnknown, ErrRevoked, *ExpiredError,
// ErrUnavailable or the error of admit. On a cache miss, admit is called once per actual
// lookup (concurrent misses of one hash share a lookup) and may refuse it.
func (s *Store) Resolve(ctx context.Context, hash string, now time.Time, admit func() error) (*Key, error) {
	if _, ok := s.revoked.Get(hash); ok {
		return nil, ErrRevoked
	}
	var k *Key
	if c, ok := s.keys.Get(hash); ok {
		k = c.key
		if now.Sub(c.at) > s.ttl/2 {
			// A key in use is refreshed before it expires, so busy keys never miss.
			go s.fetch(context.WithoutCancel(ctx), hash, nil) //nolint:errcheck // the next request sees the outcome
		}
	} else {
		if _, ok := s.unknown.Get(hash); ok {
			return nil, ErrUnknown
		}
		var err error
		if k, err = s.fetch(ctx, hash, admit); err != nil {
			return nil, err
		}
	}
	switch {
	case k.RevokedAt != nil:
		return nil, ErrRevoked
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return nil, &ExpiredError{At: *k.ExpiresAt}
	}
	return k, nil
}

func (s *Store) fetch(ctx context.Context, hash string, admit func() error) (*Key, error) {
	v, err, _ := s.flight.Do(hash, func() (any, error) {
		if admit != nil {
			if err := admit(); err != nil {
				return nil, err
			}
		}
		started := time.Now()
		k, err := s.src.Lookup(context.WithoutCancel(ctx), hash)
		switch {
		case errors.Is(err, ErrUnknown):
			s.keys.Remove(hash)
			s.unknown.Add(hash, struct{}{})
			return nil, ErrUnknown
		case err != nil:
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		if _, revoked := s.revoked.Get(hash); !revoked {
			s.keys.Add(hash, cached{key: k, at: started})
		}
		return k, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Key), nil
}

// Revoke evicts a key at once; the hash is refused until the cache lifetime has passed, even if
// a lookup that started before the revocation returns afterwards.
func (s *Store) Revoke(hash string, at time.Time) {
	s.revoked.Add(hash, at)
	s.keys.Remove(hash)
	s.origins.Purge()
}

// KeysChanged drops cached origin decisions after a key was created.
func (s *Store) KeysChanged() { s.origins.Purge() }

// OriginAllowed reports whether some active publishable key allows origin (CORS preflights
// carry no key).
func (s *Store) OriginAllowed(ctx context.Context, origin string) (bool, error) {
	if ok, hit := s.origins.Get(origin); hit {
		return ok, nil
	}
	v, err, _ := s.flight.Do("origin\x00"+origin, func() (any, error) {
		ok, err := s.src.OriginAllowed(context.WithoutCancel(ctx), origin)
		if err != nil {
			return false, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		s.origins.Add(origin, ok)
		return ok, nil
	})
	if err != nil {
		return false, err
	}
	return v.(bool), nil
}
