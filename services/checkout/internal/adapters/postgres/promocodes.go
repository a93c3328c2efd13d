package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/postgres/db"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// PromocodeBlockedUntil returns the end of the latest block of the subjects that runs past
// now, or now when none of them is blocked.
func (r *Repository) PromocodeBlockedUntil(ctx context.Context, subjects []string, now time.Time) (time.Time, error) {
	until, err := r.q.PromocodeBlockedUntil(ctx, db.PromocodeBlockedUntilParams{Subjects: subjects, Now: now})
	if err != nil {
		return time.Time{}, fmt.Errorf("promocode blocks: %w", err)
	}
	return until, nil
}

// RecordPromocodeFailure counts a failed promocode against each subject with its backoff, in
// one transaction that locks the subjects' rows in key order (so concurrent failures of
// overlapping subjects never wait on each other in a cycle).
func (r *Repository) RecordPromocodeFailure(ctx context.Context, subjects []domain.FailureSubject, now time.Time) error {
	sorted := slices.Clone(subjects)
	slices.SortFunc(sorted, func(a, b domain.FailureSubject) int { return strings.Compare(a.Key, b.Key) })
	err := pg.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		for _, s := range sorted {
			if err := q.EnsurePromocodeFailures(ctx, db.EnsurePromocodeFailuresParams{Subject: s.Key, DrainedAt: now}); err != nil {
				return err
			}
			row, err := q.LockPromocodeFailures(ctx, s.Key)
			if err != nil {
				return err
			}
			next := s.Backoff.Fail(domain.FailureState{DrainedAt: row.DrainedAt, BlockedUntil: row.BlockedUntil}, now)
			if err := q.SetPromocodeFailures(ctx, db.SetPromocodeFailuresParams{Subject: s.Key, DrainedAt: next.DrainedAt, BlockedUntil: next.BlockedUntil}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record promocode failure: %w", err)
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
