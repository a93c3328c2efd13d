package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Transfer gives the place of the caller's organizer's ticket ticketID to athlete to
// (domain.PlanTransfer), in one transaction that takes and frees no place. A transfer to the
// ticket's current athlete answers the registration as it is. The athlete's shape was checked
// against the request schema.
func (s *Service) Transfer(ctx context.Context, caller identity.Principal, ticketID string, to domain.Athlete) (domain.Registration, error) {
	scope := scopeOf(caller)
	cur, err := s.repo.Registration(ctx, scope, ticketID)
	if err != nil {
		return domain.Registration{}, fmt.Errorf("transfer: %w", err)
	}
	e, err := s.event(ctx, caller, cur.EventID)
	if err != nil {
		return domain.Registration{}, err
	}
	now := s.clock.Now()
	p, err := s.repo.TransferTicket(ctx, scope, ticketID, func(locked domain.Registration) (domain.TransferPlan, error) {
		return domain.PlanTransfer(e, locked, ticketID, to, now)
	})
	if err != nil {
		return domain.Registration{}, fmt.Errorf("transfer: %w", err)
	}
	return p.Registration, nil
}
