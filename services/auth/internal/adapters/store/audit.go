package store

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/services/auth/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// AuditLog returns a page of an organizer's audit entries, newest first, and how many it has.
func (r *Repository) AuditLog(ctx context.Context, organizerID string, page domain.Page) ([]domain.AuditEntry, int, error) {
	rows, err := r.q.ListAuditEntries(ctx, db.ListAuditEntriesParams{OrganizerID: organizerID, Limit: int32(page.Limit), Offset: int32(page.Offset)}) //nolint:gosec // paging is validated to small bounds
	if err != nil {
		return nil, 0, fmt.Errorf("list audit entries: %w", err)
	}
	total, err := r.q.CountAuditEntries(ctx, organizerID)
	if err != nil {
		return nil, 0, fmt.Errorf("count audit entries: %w", err)
	}
	out := make([]domain.AuditEntry, len(rows))
	for i, row := range rows {
		out[i] = toAuditEntry(row)
	}
	return out, int(total), nil
}

// record writes e with q, inside the transaction of the change it records.
func record(ctx context.Context, q *db.Queries, e domain.AuditEntry) error {
	err := q.InsertAuditEntry(ctx, db.InsertAuditEntryParams{
		OrganizerID: e.OrganizerID, Actor: e.Actor.Email, Address: e.Actor.Address, Action: string(e.Action),
		SubjectID: e.SubjectID, Detail: e.Detail, At: e.At,
	})
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}

func toAuditEntry(row db.AuditLog) domain.AuditEntry {
	return domain.AuditEntry{
		ID: row.ID, OrganizerID: row.OrganizerID, Actor: domain.Actor{Email: row.Actor, Address: row.Address},
		Action: domain.AuditAction(row.Action), SubjectID: row.SubjectID, Detail: row.Detail, At: row.At.UTC(),
	}
}
