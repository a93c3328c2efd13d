package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// AuditRepository reads the audit log; its entries are written by the changes they record.
type AuditRepository interface {
	// AuditLog returns a page of an organizer's audit entries, newest first, and how many it has.
	AuditLog(ctx context.Context, organizerID string, page domain.Page) ([]domain.AuditEntry, int, error)
}

// AuditLog returns a page of the organizer's audit entries, newest first, and their total count.
func (s *Service) AuditLog(ctx context.Context, organizerID string, page domain.Page) ([]domain.AuditEntry, int, error) {
	if _, err := s.repo.Organizer(ctx, organizerID); err != nil {
		return nil, 0, fmt.Errorf("audit log: %w", err)
	}
	list, total, err := s.repo.AuditLog(ctx, organizerID, page)
	if err != nil {
		return nil, 0, fmt.Errorf("audit log: %w", err)
	}
	return list, total, nil
}
