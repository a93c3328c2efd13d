// Package keys resolves API keys for the gateway: a key's hash is looked up in auth once and
// cached; revocations pushed over Kafka evict it at once, expiry is checked on every request,
// and concurrent misses for one key share a single lookup. While auth cannot be reached, keys
// this instance looked up before are served for a bounded time past their cache lifetime.
package keys

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/fault"
)

// Key is what the gateway knows of an API key.
type Key struct {
	ID          string      `json:"id"`
	OrganizerID string      `json:"organizerId"`
	Type        apikey.Type `json:"type"`
	// Mode is the mode auth stored for the key ("" from an auth that does not send it yet);
	// AuthClient reads it beside the contract's fields (see verifyAnswer).
	Mode           apikey.Mode `json:"-"`
	Scopes         []string    `json:"scopes"`
	AllowedOrigins []string    `json:"allowedOrigins"`
	ExpiresAt      *time.Time  `json:"expiresAt"`
	RevokedAt      *time.Time  `json:"revokedAt"`
}

// Errors of Resolve.
var (
	// ErrUnknown is auth's answer that no key has the hash: errors.Is matches every failure of
	// the fault.NotFound category, which is how libs/peer reports auth's 404.
	ErrUnknown     = fault.ErrNotFound
	ErrRevoked     = errors.New("keys: key revoked")
	ErrUnavailable = errors.New("keys: auth service unavailable")
	// ErrUnreachable marks a Source failure that says nothing about the key: a network error, a
	// timeout or a server error of auth, which libs/peer reports as fault.Unavailable (every
	// failure of that category matches). Only such failures let a known key be served stale.
	ErrUnreachable = fault.ErrUnavailable
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
	// worst-case delay for a revocation whose Kafka event was lost while auth answers.
	TTL time.Duration
	// StaleTTL is how long past TTL a key (or an allowed origin) looked up before is still
	// served while auth cannot be reached; zero serves none.
	StaleTTL time.Duration
	// NegativeTTL is how long an unknown hash is remembered.
	NegativeTTL time.Duration
	// OriginTTL is how long an origin decision is remembered.
	OriginTTL time.Duration
	// Log receives one warning per auth outage (nil: none).
	Log *slog.Logger
}

// Store resolves key hashes.
type Store struct {
	src     Source
	ttl     time.Duration
	stale   time.Duration
	keys    *expirable.LRU[string, cached]
	unknown *expirable.LRU[string, struct{}]
	revoked *expirable.LRU[string, time.Time]
	origins originCache
	flight  singleflight.Group
	outage  outage
}

// NewStore returns a Store over src.
func NewStore(src Source, o Options) *Store {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{
		src:   src,
		ttl:   o.TTL,
		stale: o.StaleTTL,
		// Keys are kept past their lifetime for as long as they may be served stale; a revoked
		// hash is remembered as long, so no stale entry or late lookup can bring it back.
		keys:    expirable.NewLRU[string, cached](100_000, nil, o.TTL+o.StaleTTL),
		unknown: expirable.NewLRU[string, struct{}](100_000, nil, o.NegativeTTL),
		revoked: expirable.NewLRU[string, time.Time](100_000, nil, o.TTL+o.StaleTTL),
		origins: newOriginCache(o.OriginTTL, o.StaleTTL),
		outage:  outage{log: log},
	}
}

// cached is a looked-up key and when it was looked up.
type cached struct {
	key *Key
	at  time.Time
}

// Resolve returns the active key with this hash, or ErrUnknown, ErrRevoked, *ExpiredError,
// ErrUnavailable or the error of admit. On a cache miss, admit charges the caller that starts
// the lookup concurrent misses of one hash share, and may refuse it (see once): one caller's
// refusal is never another's answer. A key past its cache lifetime is looked up
// again; while auth cannot be reached it is served as it was for up to the stale lifetime more.
func (s *Store) Resolve(ctx context.Context, hash string, now time.Time, admit func() error) (*Key, error) {
	k, err := s.known(ctx, hash, now, admit)
	if err != nil {
		return nil, err
	}
	switch {
	case k.RevokedAt != nil:
		return nil, ErrRevoked
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return nil, &ExpiredError{At: *k.ExpiresAt}
	}
	return k, nil
}

// known returns the key with this hash as last looked up, from the cache or from auth. A
// revoked key is never in the cache (see fetch and Revoke), so only a miss asks whether the
// hash was revoked.
func (s *Store) known(ctx context.Context, hash string, now time.Time, admit func() error) (*Key, error) {
	c, ok := s.keys.Get(hash)
	if !ok {
		if _, ok := s.revoked.Get(hash); ok {
			return nil, ErrRevoked
		}
		if _, ok := s.unknown.Get(hash); ok {
			return nil, ErrUnknown
		}
		return s.fetch(ctx, hash, now, admit)
	}
	age := now.Sub(c.at)
	if age <= s.ttl {
		if age > s.ttl/2 {
			// A key in use is refreshed before it expires, so busy keys never miss.
			go s.fetch(context.WithoutCancel(ctx), hash, now, nil) //nolint:errcheck // the next request sees the outcome
		}
		return c.key, nil
	}
	staleOK := age <= s.ttl+s.stale
	if staleOK && s.outage.ongoing() {
		// Auth was unreachable a moment ago: serve the key without waiting for it, and let one
		// lookup at a time find out whether auth is back.
		if s.outage.probeDue(now) {
			go s.fetch(context.WithoutCancel(ctx), hash, now, nil) //nolint:errcheck // the next request sees the outcome
		}
		s.outage.servedStale(ctx)
		return c.key, nil
	}
	k, err := s.fetch(ctx, hash, now, admit)
	if staleOK && errors.Is(err, ErrUnreachable) {
		s.outage.servedStale(ctx)
		return c.key, nil
	}
	return k, err
}

// fetch looks the hash up in auth, once for concurrent callers (see once).
func (s *Store) fetch(ctx context.Context, hash string, now time.Time, admit func() error) (*Key, error) {
	v, err := s.once(hash, admit, func() (any, error) {
		k, err := s.src.Lookup(context.WithoutCancel(ctx), hash)
		s.outage.observe(ctx, now, err)
		switch {
		case errors.Is(err, ErrUnknown):
			s.keys.Remove(hash)
			s.unknown.Add(hash, struct{}{})
			return nil, ErrUnknown
		case err != nil:
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		// Revoke marks the hash before it drops the key from the cache, and this adds the key
		// before it looks for the mark: in any order of the two, a revoked key leaves the cache.
		s.keys.Add(hash, cached{key: k, at: now})
		if _, revoked := s.revoked.Get(hash); revoked {
			s.keys.Remove(hash)
		}
		return k, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Key), nil
}

// Revoke evicts a key at once; the hash is refused for as long as the key could have been
// served, even if a lookup that started before the revocation returns afterwards.
func (s *Store) Revoke(hash string, at time.Time) {
	s.revoked.Add(hash, at)
	s.keys.Remove(hash)
	s.origins.purge()
}

// KeysChanged drops cached refusals of origins after a key was created.
func (s *Store) KeysChanged() { s.origins.refused.Purge() }
