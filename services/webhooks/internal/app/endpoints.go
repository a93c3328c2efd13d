package app

import (
	"context"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Created is an endpoint with its secret, shown in full once.
type Created struct {
	Endpoint domain.Endpoint
	Secret   string
	// PreviousSecretExpiresAt is when a rotated-out secret stops signing (rotate only).
	PreviousSecretExpiresAt *time.Time
}

// CreateEndpoint validates c and stores an enabled endpoint of org with a new secret.
func (s *Service) CreateEndpoint(ctx context.Context, org Owner, c domain.EndpointChange) (Created, error) {
	if err := s.opts.Rules.CheckCreate(&c); err != nil {
		return Created{}, err
	}
	now := s.clock.Now()
	ep := domain.Endpoint{
		ID: ids.New(domain.EndpointPrefix), OrganizerID: org.OrganizerID, Livemode: org.Livemode, URL: *c.URL,
		EventTypes: c.EventTypes, Status: domain.StatusEnabled, CreatedAt: now, UpdatedAt: now,
	}
	if c.Description != nil {
		ep.Description = *c.Description
	}
	secret := delivery.NewSecret().String()
	if err := s.repo.CreateEndpoint(ctx, ep, s.sealer.Seal(ep.ID, secret), s.opts.MaxEndpoints); err != nil {
		return Created{}, err
	}
	s.logChange(ctx, "webhook endpoint created", ep)
	return Created{Endpoint: ep, Secret: secret}, nil
}

// Endpoint returns an endpoint of org.
func (s *Service) Endpoint(ctx context.Context, org Owner, id string) (domain.Endpoint, error) {
	return s.repo.Endpoint(ctx, org, id)
}

// Endpoints returns a page of org's endpoints, newest first, and their total.
func (s *Service) Endpoints(ctx context.Context, org Owner, page domain.Page) ([]domain.Endpoint, int, error) {
	return s.repo.Endpoints(ctx, org, page)
}

// UpdateEndpoint validates c and applies it: enabling clears the reason, the failing streak and
// the notice; disabling fails the pending deliveries.
func (s *Service) UpdateEndpoint(ctx context.Context, org Owner, id string, c domain.EndpointChange) (domain.Endpoint, error) {
	if err := s.opts.Rules.CheckUpdate(&c); err != nil {
		return domain.Endpoint{}, err
	}
	now := s.clock.Now()
	ep, err := s.repo.UpdateEndpoint(ctx, org, id, now, func(ep *domain.Endpoint) error {
		if c.URL != nil {
			ep.URL = *c.URL
		}
		if c.EventTypes != nil {
			ep.EventTypes = c.EventTypes
		}
		if c.Description != nil {
			ep.Description = *c.Description
		}
		switch {
		case c.Enabled == nil:
		case *c.Enabled && ep.Status == domain.StatusDisabled:
			ep.Status, ep.DisabledReason, ep.DisabledAt, ep.FailingSince, ep.NotifiedAt = domain.StatusEnabled, "", nil, nil, nil
		case !*c.Enabled && ep.Status == domain.StatusEnabled:
			ep.Status, ep.DisabledReason, ep.DisabledAt = domain.StatusDisabled, domain.DisabledOrganizer, &now
		}
		ep.UpdatedAt = now
		return nil
	})
	if err == nil {
		s.logChange(ctx, "webhook endpoint updated", ep)
	}
	return ep, err
}

// DeleteEndpoint deletes an endpoint of org with its secrets and deliveries, and returns it as
// it was.
func (s *Service) DeleteEndpoint(ctx context.Context, org Owner, id string) (domain.Endpoint, error) {
	ep, err := s.repo.DeleteEndpoint(ctx, org, id)
	if err == nil {
		s.logChange(ctx, "webhook endpoint deleted", ep)
	}
	return ep, err
}

// RotateSecret gives an endpoint of org a new current secret; the former one keeps signing
// beside it for domain.SecretOverlap, and one that was already being replaced stops at once.
func (s *Service) RotateSecret(ctx context.Context, org Owner, id string) (Created, error) {
	now := s.clock.Now()
	secret := delivery.NewSecret().String()
	expires := now.Add(domain.SecretOverlap)
	ep, err := s.repo.RotateSecret(ctx, org, id, s.sealer.Seal(id, secret), now, expires)
	if err != nil {
		return Created{}, err
	}
	s.logChange(ctx, "webhook endpoint secret rotated", ep, "previous_secret_expires_at", expires)
	return Created{Endpoint: ep, Secret: secret, PreviousSecretExpiresAt: &expires}, nil
}

// Test sends a ping to an enabled endpoint of org, delivered like any other message; the
// repository refuses a disabled one.
func (s *Service) Test(ctx context.Context, org Owner, id string) (domain.Delivery, error) {
	ep, err := s.repo.Endpoint(ctx, org, id)
	if err != nil {
		return domain.Delivery{}, err
	}
	m, err := domain.NewPing(ep, s.clock.Now())
	if err != nil {
		return domain.Delivery{}, err
	}
	d, err := s.repo.EnqueuePing(ctx, m, ep.ID)
	if err == nil {
		s.wake()
	}
	return d, err
}

// logChange tells operators of a change an organizer made to an endpoint: whose, which, and
// the receiver's host (a URL's path or query may carry the receiver's own token).
func (s *Service) logChange(ctx context.Context, msg string, ep domain.Endpoint, attrs ...any) {
	host := ""
	if u, err := url.Parse(ep.URL); err == nil {
		host = u.Host
	}
	s.log.InfoContext(ctx, msg, append([]any{"organizer", ep.OrganizerID, "livemode", ep.Livemode, "endpoint", ep.ID,
		"status", ep.Status, "host", host, "event_types", ep.EventTypes}, attrs...)...)
}
