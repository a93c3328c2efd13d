package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Transfer gives the place of the caller's organizer's ticket ticketID to athlete to
// (domain.PlanTransfer), in one transaction that takes and frees no place. A transfer to the
// ticket's current athlete answers the registration as it is. The waivers of accepted (waiver
// id → true) are signed at the transfer (domain.PlanTransferSigning). The athlete's shape was
// checked against the request schema.
func (s *Service) Transfer(ctx context.Context, caller identity.Principal, ticketID string, to domain.Athlete, accepted map[string]bool) (domain.Registration, error) {
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
		return domain.PlanTransferSigning(e, locked, ticketID, to, accepted, now)
	})
	if err != nil {
		return domain.Registration{}, fmt.Errorf("transfer: %w", err)
	}
	return p.Registration, nil
}

// SignWaivers signs the pending waivers of the caller's organizer's ticket ticketID that
// accepted names (domain.PlanSigning) and answers the registration as it now is. Signing
// waivers signed already changes nothing.
func (s *Service) SignWaivers(ctx context.Context, caller identity.Principal, ticketID string, accepted map[string]bool) (domain.Registration, error) {
	now := s.clock.Now()
	p, err := s.repo.SignWaivers(ctx, scopeOf(caller), ticketID, func(locked domain.Registration) (domain.SigningPlan, error) {
		return domain.PlanSigning(locked, ticketID, accepted, now)
	})
	if err != nil {
		return domain.Registration{}, fmt.Errorf("sign waivers: %w", err)
	}
	return p.Registration, nil
}
