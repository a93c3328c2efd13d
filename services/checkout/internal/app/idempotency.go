package app

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// pollMax bounds the wait between two reads of a running idempotency record.
const pollMax = 50 * time.Millisecond

// claim decides what a session request with an idempotency key does:
//   - no record: insert one RUNNING (INSERT … ON CONFLICT DO NOTHING picks the one winner)
//     and run;
//   - a record of another body: domain.ErrIdempotencyMismatch (422);
//   - SUCCEEDED: replay its stored answer (one indexed read, nothing else);
//   - FAILED, a RUNNING record whose lease lapsed (its process died), or a record past its
//     retention: take it over and run (an interrupted attempt is resumed with the same
//     checkout, hence the same hold and Stripe idempotency key);
//   - RUNNING: wait for it, polling, up to IdempotencyWait, then replay its answer or answer
//     domain.ErrIdempotencyBusy (409).
//
// It returns the record to run under, or the answer to replay.
func (s *Service) claim(ctx context.Context, keyID, key string, hash []byte) (*domain.IdempotencyRecord, *SessionResult, error) {
	deadline := s.opts.Now().Add(s.opts.IdempotencyWait)
	delay := 2 * time.Millisecond
	for {
		now := s.clock.Now()
		rec, found, err := s.repo.Idempotency(ctx, keyID, key)
		if err != nil {
			return nil, nil, fmt.Errorf("idempotency: %w", err)
		}
		own := domain.IdempotencyRecord{
			KeyID: keyID, Key: key, RequestHash: hash, State: domain.IdemRunning, CheckoutID: domain.NewCheckoutID(),
			LockedUntil: now.Add(s.opts.Lease), ExpiresAt: now.Add(s.opts.Retention),
		}
		expired := found && !now.Before(rec.ExpiresAt)
		switch {
		case !found:
			ok, err := s.repo.InsertIdempotency(ctx, own)
			if err != nil {
				return nil, nil, fmt.Errorf("idempotency: %w", err)
			}
			if ok {
				return &own, nil, nil
			}
			continue // another request inserted first: read its record
		case !expired && !rec.Matches(hash):
			return nil, nil, domain.ErrIdempotencyMismatch
		case !expired && rec.State == domain.IdemSucceeded:
			res, err := storedAnswer(rec)
			if err != nil {
				return nil, nil, err
			}
			return nil, &res, nil
		case expired || rec.State == domain.IdemFailed || now.After(rec.LockedUntil):
			id, ok, err := s.repo.TakeOverIdempotency(ctx, own, own.CheckoutID, now)
			if err != nil {
				return nil, nil, fmt.Errorf("idempotency: %w", err)
			}
			if ok {
				own.CheckoutID = id
				return &own, nil, nil
			}
			continue
		}
		if !s.opts.Now().Before(deadline) {
			return nil, nil, domain.ErrIdempotencyBusy
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, pollMax)
	}
}

// bodyHash is what a session body says about idempotency: its idempotencyKey and its
// canonical hash (domain.RequestHash).
type bodyHash struct {
	key  string
	hash []byte
}

// requestHash returns the canonical hash of the body of a request with idempotency key key,
// and remembers both by the SHA-256 of the body's bytes: a retry usually sends the very same
// bytes, which Replay then recognises without decoding them (putting a large body, a
// signature of many points, in canonical form costs far more than hashing its bytes).
func (s *Service) requestHash(key string, body []byte) ([]byte, error) {
	raw := sha256.Sum256(body)
	if m, ok := s.hashes.Get(raw); ok {
		return m.hash, nil
	}
	h, err := domain.RequestHash(body)
	if err != nil {
		return nil, err
	}
	s.hashes.Add(raw, bodyHash{key: key, hash: h})
	return h, nil
}

// replayKey names a remembered answer: the publishable key and the SHA-256 of the body's bytes
// (which hold the idempotency key).
type replayKey struct {
	keyID string
	body  [32]byte
}

// answer is a succeeded request's answer, remembered until its record's retention ends: a
// succeeded record never changes before then, so no other instance can make it stale.
type answer struct {
	res     SessionResult
	expires time.Time
}

// Replay answers a retry of a session request whose first request succeeded with the stored
// answer, when this process has seen the body's very bytes before (see requestHash): from
// memory when it answered or replayed it already, else with one read of the record, and
// nothing decoded. ok is false when it cannot tell (bytes not seen here, a record still
// running, failed or expired): CreateSession then decides, as for any request.
func (s *Service) Replay(ctx context.Context, keyID string, body []byte) (res SessionResult, ok bool, err error) {
	digest := sha256.Sum256(body)
	if a, found := s.answers.Get(replayKey{keyID, digest}); found && s.clock.Now().Before(a.expires) {
		return a.res, true, nil
	}
	m, seen := s.hashes.Get(digest)
	if !seen {
		return SessionResult{}, false, nil
	}
	rec, found, err := s.repo.Idempotency(ctx, keyID, m.key)
	if err != nil {
		return SessionResult{}, false, fmt.Errorf("idempotency: %w", err)
	}
	if !found || rec.State != domain.IdemSucceeded || !rec.Matches(m.hash) || !s.clock.Now().Before(rec.ExpiresAt) {
		return SessionResult{}, false, nil
	}
	if res, err = storedAnswer(rec); err != nil {
		return SessionResult{}, false, err
	}
	s.remember(keyID, digest, res, rec.ExpiresAt)
	return res, true, nil
}

// remember keeps the replay of a succeeded answer for its retention.
func (s *Service) remember(keyID string, body [32]byte, res SessionResult, expires time.Time) {
	res.Replayed = true
	s.answers.Add(replayKey{keyID, body}, answer{res: res, expires: expires})
}

// storedAnswer is the answer a succeeded record replays.
func storedAnswer(rec domain.IdempotencyRecord) (SessionResult, error) {
	var res SessionResult
	if err := json.Unmarshal(rec.Response, &res); err != nil {
		return SessionResult{}, fmt.Errorf("idempotency: stored answer: %w", err)
	}
	res.Replayed = true
	return res, nil
}
