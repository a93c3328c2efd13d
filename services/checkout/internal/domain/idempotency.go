package domain

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"time"
)

// IdempotencyState is where the request behind an idempotency key is.
type IdempotencyState string

// Idempotency states: running (a request owns the key), succeeded (its answer is stored) or
// failed (the next request with the key runs again).
const (
	IdemRunning   IdempotencyState = "RUNNING"
	IdemSucceeded IdempotencyState = "SUCCEEDED"
	IdemFailed    IdempotencyState = "FAILED"
)

// IdempotencyRecord is what is stored about an idempotency key of a publishable key.
type IdempotencyRecord struct {
	KeyID string
	// Livemode is the mode of the key: a key of one mode never matches the other's.
	Livemode bool
	// OrganizerID is the organizer of the key (empty in records made before test mode).
	OrganizerID string
	Key         string
	RequestHash []byte
	State       IdempotencyState
	CheckoutID  string
	// Response is the stored answer of a succeeded request.
	Response    []byte
	LockedUntil time.Time
	ExpiresAt   time.Time
}

// Matches reports, in constant time, whether hash is the hash of the request that first used
// the key.
func (r *IdempotencyRecord) Matches(hash []byte) bool {
	return subtle.ConstantTimeCompare(r.RequestHash, hash) == 1
}

// RequestHash is the SHA-256 of body in a canonical form: the JSON value re-encoded with
// object keys sorted and insignificant whitespace dropped (numbers keep their literal text),
// so the same purchase sent with other key order or spacing has the same hash.
func RequestHash(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, ErrInvalidBody
	}
	canonical, err := json.Marshal(v)
	if err != nil {
		return nil, ErrInvalidBody
	}
	sum := sha256.Sum256(canonical)
	return sum[:], nil
}
