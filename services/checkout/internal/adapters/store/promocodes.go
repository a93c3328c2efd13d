package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// AdmitPromocode admits a request that sends a promocode, in one transaction that locks the
// subjects' rows in key order (so concurrent requests of overlapping subjects never wait on
// each other in a cycle): while any subject is blocked at now it records nothing and returns
// the longest block left; otherwise it records a failure against every subject up front and
// returns the charges, for ForgivePromocode to take back if the code turns out valid.
func (r *Repository) AdmitPromocode(ctx context.Context, subjects []domain.FailureSubject, now time.Time) ([]domain.FailureCharge, time.Duration, error) {
	sorted := slices.SortedFunc(slices.Values(subjects), func(a, b domain.FailureSubject) int { return strings.Compare(a.Key, b.Key) })
	var charged []domain.FailureCharge
	var blocked time.Duration
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		states := make([]domain.FailureState, len(sorted))
		for i, s := range sorted {
			if err := q.EnsurePromocodeFailures(ctx, s.Key); err != nil {
				return err
			}
			row, err := q.LockPromocodeFailures(ctx, s.Key)
			if err != nil {
				return err
			}
			states[i] = domain.FailureState{DrainedAt: row.DrainedAt, BlockedUntil: row.BlockedUntil}
			blocked = max(blocked, s.Backoff.Blocked(states[i], now))
		}
		if blocked > 0 {
			return nil
		}
		for i, s := range sorted {
			next := s.Backoff.Fail(states[i], now)
			if err := q.SetPromocodeFailures(ctx, db.SetPromocodeFailuresParams{Subject: s.Key, DrainedAt: next.DrainedAt, BlockedUntil: next.BlockedUntil}); err != nil {
				return err
			}
			charged = append(charged, domain.FailureCharge{Subject: s, Before: states[i], After: next})
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("admit promocode: %w", err)
	}
	return charged, blocked, nil
}

// ForgivePromocode takes back the failures AdmitPromocode charged, in one transaction that
// locks their subjects' rows in key order.
func (r *Repository) ForgivePromocode(ctx context.Context, charged []domain.FailureCharge) error {
	sorted := slices.SortedFunc(slices.Values(charged), func(a, b domain.FailureCharge) int { return strings.Compare(a.Subject.Key, b.Subject.Key) })
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		for _, c := range sorted {
			row, err := q.LockPromocodeFailures(ctx, c.Subject.Key)
			if postgres.IsNoRows(err) {
				continue // swept: nothing left to take back
			}
			if err != nil {
				return err
			}
			next := c.Subject.Backoff.Forgive(domain.FailureState{DrainedAt: row.DrainedAt, BlockedUntil: row.BlockedUntil}, c)
			if err := q.SetPromocodeFailures(ctx, db.SetPromocodeFailuresParams{Subject: c.Subject.Key, DrainedAt: next.DrainedAt, BlockedUntil: next.BlockedUntil}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("forgive promocode: %w", err)
	}
	return nil
}

// PrunePromocodeFailures forgets subjects whose failures were all forgiven and whose block
// ended by now.
func (r *Repository) PrunePromocodeFailures(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.q.PrunePromocodeFailures(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("prune promocode failures: %w", err)
	}
	return n, nil
}
