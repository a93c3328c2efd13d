package app

import (
	"context"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Deliveries returns a page of the deliveries of an endpoint of org, newest first, with status
// ("" for any), and their total.
func (s *Service) Deliveries(ctx context.Context, org Owner, endpointID, status string, page domain.Page) ([]domain.Delivery, int, error) {
	if _, err := s.repo.Endpoint(ctx, org, endpointID); err != nil {
		return nil, 0, err
	}
	return s.repo.Deliveries(ctx, endpointID, status, page)
}

// Delivery returns a delivery of an endpoint of org with its attempts.
func (s *Service) Delivery(ctx context.Context, org Owner, endpointID, id string) (domain.Delivery, []domain.Attempt, error) {
	if _, err := s.repo.Endpoint(ctx, org, endpointID); err != nil {
		return domain.Delivery{}, nil, err
	}
	return s.repo.Delivery(ctx, endpointID, id)
}

// Retry hands a delivery of an enabled endpoint of org back to the dispatcher: pending, due
// now.
func (s *Service) Retry(ctx context.Context, org Owner, endpointID, id string) (domain.Delivery, error) {
	d, err := s.repo.RetryDelivery(ctx, org, endpointID, id, s.clock.Now())
	if err == nil {
		s.wake()
	}
	return d, err
}

// Recover hands every failed delivery of an enabled endpoint of org created since since (at
// most Retention ago) back to the dispatcher, and returns how many.
func (s *Service) Recover(ctx context.Context, org Owner, endpointID string, since time.Time) (int, error) {
	now := s.clock.Now()
	if since.After(now) {
		return 0, fault.NewInvalid("since must not be in the future")
	}
	if oldest := now.Add(-s.opts.Retention); since.Before(oldest) {
		since = oldest
	}
	n, err := s.repo.RecoverDeliveries(ctx, org, endpointID, since, now)
	if err == nil && n > 0 {
		s.log.InfoContext(ctx, "webhook deliveries recovered", "organizer", org.OrganizerID, "livemode", org.Livemode,
			"endpoint", endpointID, "since", since, "deliveries", n)
		s.wake()
	}
	return n, err
}
