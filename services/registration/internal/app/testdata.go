package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TestMail returns a page of the organizer's kept test mail, newest first, and the total.
func (s *Service) TestMail(ctx context.Context, organizerID string, p domain.Page) ([]domain.TestMail, int, error) {
	list, total, err := s.repo.TestMail(ctx, organizerID, p)
	if err != nil {
		return nil, 0, fmt.Errorf("list test mail: %w", err)
	}
	return list, total, nil
}

// PruneTestMail deletes test mail kept longer than domain.TestMailKeep.
func (s *Service) PruneTestMail(ctx context.Context) (int64, error) {
	n, err := s.repo.PruneTestMail(ctx, s.clock.Now().Add(-domain.TestMailKeep))
	if err != nil {
		return 0, fmt.Errorf("sweep test mail: %w", err)
	}
	return n, nil
}

// DeleteTestData deletes the caller's organizer's test data here (one transaction, committed
// first) and then at each peer, for the caller in test mode, and sums the counts. A peer that
// fails makes the whole call unavailable (503): what was deleted stays deleted, and a retry
// finishes the job, since every part deletes only what is left.
func (s *Service) DeleteTestData(ctx context.Context, caller identity.Principal) (domain.TestDataDeleted, error) {
	d, err := s.repo.DeleteTestData(ctx, caller.OrganizerID, s.clock.Now())
	if err != nil {
		return domain.TestDataDeleted{}, err
	}
	as := identity.Principal{OrganizerID: caller.OrganizerID, KeyID: caller.KeyID, KeyType: caller.KeyType, Test: true}
	for _, p := range s.peers {
		n, err := p.DeleteTestData(ctx, as)
		if err != nil {
			if _, ok := fault.Of(err); ok && fault.KindOf(err) == fault.Unavailable {
				return domain.TestDataDeleted{}, err
			}
			return domain.TestDataDeleted{}, fault.NewUnavailable("test data", err)
		}
		d.CheckoutSessions += n.CheckoutSessions
		d.WebhookEndpoints += n.WebhookEndpoints
		d.WebhookDeliveries += n.WebhookDeliveries
	}
	return d, nil
}
