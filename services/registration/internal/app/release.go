package app

import (
	"context"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// releasedHoldKeep is how long a released hold id is remembered: far longer than a hold
// request with it can be in flight (checkout never sends a released id again).
const releasedHoldKeep = 24 * time.Hour

// ReleaseHold releases a held order's places (idempotent; a COMPLETED order is a conflict).
func (s *Service) ReleaseHold(ctx context.Context, caller identity.Principal, orderID, reason string) (domain.Order, error) {
	if err := checkReleaseReason(reason); err != nil {
		return domain.Order{}, err
	}
	o, err := s.repo.ReleaseOrder(ctx, scopeOf(caller), orderID, reason, s.clock.Now())
	if err != nil {
		return domain.Order{}, fmt.Errorf("release hold: %w", err)
	}
	s.Nudge()
	return o, nil
}

// ReleaseHoldByID releases a hold by the hold id checkout chose, whether or not its order was
// made: checkout calls it when a hold's answer was lost (a timeout), so it cannot know the
// order. A hold with that id arriving afterwards is refused (409, reason HOLD_RELEASED).
// Idempotent; found is false when no order was made; a COMPLETED order is a conflict.
func (s *Service) ReleaseHoldByID(ctx context.Context, caller identity.Principal, holdID, reason string) (o domain.Order, found bool, err error) {
	if err := checkReleaseReason(reason); err != nil {
		return domain.Order{}, false, err
	}
	if holdID == "" {
		return domain.Order{}, false, fault.NewInvalid("holdId is required")
	}
	defer s.Nudge()
	return s.repo.ReleaseHoldByID(ctx, scopeOf(caller), holdID, reason, s.clock.Now())
}

func checkReleaseReason(reason string) error {
	switch reason {
	case domain.ReleaseExpired, domain.ReleaseFailed, domain.ReleaseCancelled:
		return nil
	}
	return fault.NewInvalid("reason must be one of EXPIRED, FAILED, CANCELLED")
}

// pruneReleasedHolds forgets hold ids released more than a day ago.
func (s *Service) pruneReleasedHolds(ctx context.Context) error {
	if _, err := s.repo.PruneReleasedHolds(ctx, s.clock.Now().Add(-releasedHoldKeep)); err != nil {
		return fmt.Errorf("sweep holds: %w", err)
	}
	return nil
}
