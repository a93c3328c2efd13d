package app

import (
	"context"
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
		now := s.clock()
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
			var res SessionResult
			if err := json.Unmarshal(rec.Response, &res); err != nil {
				return nil, nil, fmt.Errorf("idempotency: stored answer: %w", err)
			}
			res.Replayed = true
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
