package app

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// pollMax bounds the wait between two reads of a running idempotency record.
const pollMax = 50 * time.Millisecond

// claim is the one idempotency check of a session request with an idempotency key; it
// decides what the request does:
//   - its very bytes answered or replayed here before: replay that answer from memory;
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
func (s *Service) claim(ctx context.Context, as identity.Principal, b bodyID) (*domain.IdempotencyRecord, *SessionResult, error) {
	keyID, livemode := as.KeyID, as.Livemode()
	if a, found := s.answers.Get(replayKey{keyID, livemode, b.digest}); found && s.clock.Now().Before(a.expires) {
		return nil, &a.res, nil
	}
	deadline := s.opts.Now().Add(s.opts.IdempotencyWait)
	delay := 2 * time.Millisecond
	for {
		now := s.clock.Now()
		rec, found, err := s.repo.Idempotency(ctx, keyID, livemode, b.key)
		if err != nil {
			return nil, nil, fmt.Errorf("idempotency: %w", err)
		}
		own := domain.IdempotencyRecord{
			KeyID: keyID, Livemode: livemode, OrganizerID: as.OrganizerID, Key: b.key, RequestHash: b.hash, State: domain.IdemRunning, CheckoutID: domain.NewCheckoutID(),
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
		case !expired && !rec.Matches(b.hash):
			return nil, nil, domain.ErrIdempotencyMismatch
		case !expired && rec.State == domain.IdemSucceeded:
			res, err := storedAnswer(rec)
			if err != nil {
				return nil, nil, err
			}
			s.remember(keyID, livemode, b.digest, res, rec.ExpiresAt)
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

// bodyID is what a session body says about idempotency: the SHA-256 of its bytes, its
// idempotencyKey and its canonical hash (domain.RequestHash).
type bodyID struct {
	digest [32]byte
	key    string
	hash   []byte
}

// identify reads what a session body says about idempotency: from memory when this process
// saw its very bytes with an idempotency key before, with nothing decoded (a retry usually
// sends the very same bytes, and putting a large body, a signature of many points, in
// canonical form costs far more than hashing its bytes); else by decoding it, returning the
// purchase too so that it is decoded once.
func (s *Service) identify(r SessionRequest) (bodyID, *domain.Purchase, error) {
	digest := sha256.Sum256(r.Body)
	if b, ok := s.bodies.Get(digest); ok {
		return b, nil, nil
	}
	p, err := r.Decode()
	if err != nil {
		return bodyID{}, nil, err
	}
	b := bodyID{digest: digest, key: p.IdempotencyKey}
	if b.key != "" {
		if b.hash, err = domain.RequestHash(r.Body); err != nil {
			return bodyID{}, nil, err
		}
		s.bodies.Add(digest, b)
	}
	return b, &p, nil
}

// replayKey names a remembered answer: the publishable key, its mode and the SHA-256 of the
// body's bytes (which hold the idempotency key).
type replayKey struct {
	keyID    string
	livemode bool
	body     [32]byte
}

// answer is a succeeded request's answer, remembered until its record's retention ends: a
// succeeded record never changes before then, so no other instance can make it stale.
type answer struct {
	res     SessionResult
	expires time.Time
}

// remember keeps the replay of a succeeded answer for its retention.
func (s *Service) remember(keyID string, livemode bool, body [32]byte, res SessionResult, expires time.Time) {
	res.Replayed = true
	s.answers.Add(replayKey{keyID, livemode, body}, answer{res: res, expires: expires})
}

// storedAnswer is the answer a succeeded record replays.
func storedAnswer(rec domain.IdempotencyRecord) (SessionResult, error) {
	var res SessionResult
	if err := json.Unmarshal(rec.Response, &res); err != nil {
		return SessionResult{}, fmt.Errorf("idempotency: stored answer: %w", err)
	}
	res.Replayed, res.Livemode = true, rec.Livemode // answers stored before test mode lack livemode
	return res, nil
}
