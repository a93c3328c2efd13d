package domain

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
)

// KeyType is the kind of API key.
type KeyType string

// Key types: secret keys authenticate organizer backends, publishable keys browser code.
const (
	SecretKey      KeyType = KeyType(apikey.Secret)
	PublishableKey KeyType = KeyType(apikey.Publishable)
)

// Limits of key inputs.
const (
	MaxKeyNameLen = 100
	MaxOrigins    = 100
)

// Key is an API key as stored: its hash and last four characters, never the key itself.
type Key struct {
	ID             string
	OrganizerID    string
	Type           KeyType
	Mode           apikey.Mode // live, or test for a key that works on test data only
	Name           string
	Hash           string
	Last4          string
	Scopes         []string
	AllowedOrigins []string
	CreatedAt      time.Time
	LastUsedAt     *time.Time
	ExpiresAt      *time.Time
	RevokedAt      *time.Time
}

// Prefix returns the fixed prefix every key of k's type and mode starts with.
func (k Key) Prefix() string { return apikey.Prefix(apikey.Type(k.Type), k.Mode) }

// parseKeyMode reads a key mode as requests name it: empty is live.
func parseKeyMode(s string) (apikey.Mode, bool) {
	switch apikey.Mode(s) {
	case "", apikey.Live:
		return apikey.Live, true
	case apikey.Test:
		return apikey.Test, true
	}
	return "", false
}

// Expired reports whether k has an expiry at or before at.
func (k Key) Expired(at time.Time) bool { return k.ExpiresAt != nil && !k.ExpiresAt.After(at) }

// Active reports whether k still authenticates at the given time: neither revoked nor expired.
func (k Key) Active(at time.Time) bool { return k.RevokedAt == nil && !k.Expired(at) }

// Revoke marks k revoked at the given time and reports whether it changed: revoking a revoked
// key keeps its first revocation time.
func (k *Key) Revoke(at time.Time) bool {
	if k.RevokedAt != nil {
		return false
	}
	k.RevokedAt = &at
	return true
}

// KeyRequest is a request to create a key, as an operator sends it.
type KeyRequest struct {
	Type           string
	Mode           string // live (or empty) or test
	Name           string
	Scopes         []string
	AllowedOrigins []string
	// ExpiresAt is an RFC 3339 timestamp, or empty for a key that does not expire.
	ExpiresAt string
}

// NewKey validates r and mints a key for organizerID at now. It returns the stored form and the
// full key, which is shown to the operator once and never stored.
func NewKey(organizerID string, r KeyRequest, now time.Time) (Key, string, error) {
	k, err := validateKeyRequest(r, now)
	if err != nil {
		return Key{}, "", err
	}
	full, err := apikey.Generate(apikey.Type(k.Type), k.Mode)
	if err != nil {
		return Key{}, "", fmt.Errorf("generate key: %w", err)
	}
	k.ID, k.OrganizerID, k.CreatedAt = NewKeyID(), organizerID, now
	k.Hash, k.Last4 = apikey.Hash(full), apikey.Last4(full)
	return k, full, nil
}

// validateKeyRequest returns the key r describes, without identity or secret, or a
// fault.Invalid failure listing every problem.
func validateKeyRequest(r KeyRequest, now time.Time) (Key, error) {
	var p fault.Problems
	k := Key{Type: KeyType(r.Type), Name: strings.TrimSpace(r.Name), Scopes: []string{}, AllowedOrigins: []string{}}
	mode, ok := parseKeyMode(r.Mode)
	if !ok {
		p.Add("mode must be one of live, test")
	}
	k.Mode = mode
	switch {
	case k.Name == "":
		p.Add("name is required")
	case utf8.RuneCountInString(k.Name) > MaxKeyNameLen:
		p.Addf("name must be at most %d characters", MaxKeyNameLen)
	case !safetext.Valid(k.Name):
		p.Add("name " + safetext.Rule)
	}
	switch k.Type {
	case SecretKey:
		k.Scopes = validateScopes(r.Scopes, &p)
		if len(r.AllowedOrigins) > 0 {
			p.Add("allowedOrigins is only for publishable keys; secret keys must not be used from browsers")
		}
	case PublishableKey:
		k.AllowedOrigins = validateOrigins(r.AllowedOrigins, &p)
		if len(r.Scopes) > 0 {
			p.Add("scopes is only for secret keys; publishable keys are limited by allowedOrigins")
		}
	case "":
		p.Add("type is required: secret or publishable")
	default:
		p.Add("type must be one of secret, publishable")
	}
	if r.ExpiresAt != "" {
		exp, err := time.Parse(time.RFC3339, r.ExpiresAt)
		switch {
		case err != nil:
			p.Add("expiresAt must be an RFC 3339 timestamp such as 2027-01-01T00:00:00Z")
		case !exp.After(now):
			p.Add("expiresAt must be in the future")
		default:
			exp = clock.Stored(exp)
			k.ExpiresAt = &exp
		}
	}
	return k, p.Err(fault.Invalid)
}

// validateOrigins normalises the allowed origins of a publishable key: at least one, at most
// MaxOrigins, each a bare origin. Origins equal after normalisation are kept once.
func validateOrigins(origins []string, p *fault.Problems) []string {
	switch {
	case len(origins) == 0:
		p.Add("allowedOrigins must list at least one origin for a publishable key")
		return nil
	case len(origins) > MaxOrigins:
		p.Addf("allowedOrigins must list at most %d origins", MaxOrigins)
		return nil
	}
	out := make([]string, 0, len(origins))
	for i, o := range origins {
		n, err := NormalizeOrigin(o)
		if err != nil {
			p.Addf("allowedOrigins[%d] %v", i, err)
			continue
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// ValidKeyHash reports whether s has the form of apikey.Hash: 64 lowercase hex characters.
func ValidKeyHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
