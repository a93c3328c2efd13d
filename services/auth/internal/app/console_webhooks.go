package app

import (
	"context"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// Webhooks is the webhooks service's internal API: the endpoints and deliveries of the
// organizer the caller acts for, which it alone owns. Another organizer's are not found.
type Webhooks interface {
	Endpoints(ctx context.Context, as WebhooksCaller, page domain.Page) ([]domain.WebhookEndpoint, int, error)
	Endpoint(ctx context.Context, as WebhooksCaller, id string) (domain.WebhookEndpoint, error)
	CreateEndpoint(ctx context.Context, as WebhooksCaller, r domain.WebhookEndpointRequest) (domain.WebhookSecret, error)
	SetEndpointEnabled(ctx context.Context, as WebhooksCaller, id string, enabled bool) (domain.WebhookEndpoint, error)
	DeleteEndpoint(ctx context.Context, as WebhooksCaller, id string) (domain.WebhookEndpoint, error)
	RotateSecret(ctx context.Context, as WebhooksCaller, id string) (domain.WebhookSecret, error)
	SendTest(ctx context.Context, as WebhooksCaller, id string) (domain.WebhookDelivery, error)
	Deliveries(ctx context.Context, as WebhooksCaller, id string, page domain.Page) ([]domain.WebhookDelivery, int, error)
	Delivery(ctx context.Context, as WebhooksCaller, endpointID, deliveryID string) (domain.WebhookDelivery, error)
	RetryDelivery(ctx context.Context, as WebhooksCaller, endpointID, deliveryID string) (domain.WebhookDelivery, error)
	// Recover makes every failed delivery of the endpoint since the time pending again and
	// returns how many.
	Recover(ctx context.Context, as WebhooksCaller, id string, since time.Time) (int, error)
}

// WebhooksCaller is the signed-in member the console calls the webhooks service for; Test
// asks for the organizer's test endpoints (the console in test mode).
type WebhooksCaller struct {
	OrganizerID, MemberID string
	Test                  bool
}

// ErrWebhooksUnavailable is the webhooks service failing to answer: down, slower than its
// timeout, or failing. The console's Webhooks tab says so; nothing else depends on it.
var ErrWebhooksUnavailable = &fault.Error{
	Kind: fault.Unavailable, Code: "webhooks_unavailable", RetryAfter: 30 * time.Second,
	Problems: []string{"webhooks are unavailable right now"},
}

// webhooksFor returns the member email as the webhooks service's caller for the organizer in
// mode, once their membership (and, when manage is asked, their role: the one that manages
// API keys) allows it. The check holds one of the console's places, given back before the
// webhooks service is called, so a slow webhooks service holds no database place.
func (c *Console) webhooksFor(ctx context.Context, mode apikey.Mode, email, organizerID string, manage bool) (WebhooksCaller, error) {
	if c.hooks == nil {
		return WebhooksCaller{}, ErrWebhooksUnavailable
	}
	var m domain.Membership
	err := c.withPlace(ctx, func() error {
		var err error
		m, err = c.authorize(ctx, email, organizerID, manage)
		return err
	})
	return WebhooksCaller{OrganizerID: m.OrganizerID, MemberID: m.ID, Test: mode == apikey.Test}, err
}

// WebhookEndpoints returns a page of the organizer's endpoints, for any of its members.
func (c *Console) WebhookEndpoints(ctx context.Context, mode apikey.Mode, email, organizerID string, page domain.Page) ([]domain.WebhookEndpoint, int, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, false)
	if err != nil {
		return nil, 0, err
	}
	return c.hooks.Endpoints(ctx, as, page)
}

// WebhookEndpoint returns one of the organizer's endpoints and a page of its deliveries, for
// any of its members.
func (c *Console) WebhookEndpoint(ctx context.Context, mode apikey.Mode, email, organizerID, id string, page domain.Page) (domain.WebhookEndpoint, []domain.WebhookDelivery, int, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, false)
	if err != nil {
		return domain.WebhookEndpoint{}, nil, 0, err
	}
	e, err := c.hooks.Endpoint(ctx, as, id)
	if err != nil {
		return domain.WebhookEndpoint{}, nil, 0, err
	}
	list, total, err := c.hooks.Deliveries(ctx, as, id, page)
	return e, list, total, err
}

// WebhookDelivery returns a delivery of one of the organizer's endpoints with its attempts,
// for any of its members.
func (c *Console) WebhookDelivery(ctx context.Context, mode apikey.Mode, email, organizerID, endpointID, deliveryID string) (domain.WebhookDelivery, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, false)
	if err != nil {
		return domain.WebhookDelivery{}, err
	}
	return c.hooks.Delivery(ctx, as, endpointID, deliveryID)
}

// CreateWebhookEndpoint adds an endpoint for an owner or admin and returns it with its
// secret, which is shown this once.
func (c *Console) CreateWebhookEndpoint(ctx context.Context, mode apikey.Mode, email, organizerID string, r domain.WebhookEndpointRequest) (domain.WebhookSecret, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return domain.WebhookSecret{}, err
	}
	return c.hooks.CreateEndpoint(ctx, as, r)
}

// SetWebhookEndpointEnabled enables or disables an endpoint, for an owner or admin.
func (c *Console) SetWebhookEndpointEnabled(ctx context.Context, mode apikey.Mode, email, organizerID, id string, enabled bool) error {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return err
	}
	_, err = c.hooks.SetEndpointEnabled(ctx, as, id, enabled)
	return err
}

// DeleteWebhookEndpoint deletes an endpoint, for an owner or admin.
func (c *Console) DeleteWebhookEndpoint(ctx context.Context, mode apikey.Mode, email, organizerID, id string) error {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return err
	}
	_, err = c.hooks.DeleteEndpoint(ctx, as, id)
	return err
}

// RotateWebhookSecret gives an endpoint a new secret, for an owner or admin; the previous one
// keeps signing beside it for a while (WebhookSecret.PreviousExpiresAt).
func (c *Console) RotateWebhookSecret(ctx context.Context, mode apikey.Mode, email, organizerID, id string) (domain.WebhookSecret, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return domain.WebhookSecret{}, err
	}
	return c.hooks.RotateSecret(ctx, as, id)
}

// SendWebhookTest delivers a ping to an endpoint, for an owner or admin.
func (c *Console) SendWebhookTest(ctx context.Context, mode apikey.Mode, email, organizerID, id string) (domain.WebhookDelivery, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return domain.WebhookDelivery{}, err
	}
	return c.hooks.SendTest(ctx, as, id)
}

// RetryWebhookDelivery attempts a delivery again now, for an owner or admin.
func (c *Console) RetryWebhookDelivery(ctx context.Context, mode apikey.Mode, email, organizerID, endpointID, deliveryID string) error {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return err
	}
	_, err = c.hooks.RetryDelivery(ctx, as, endpointID, deliveryID)
	return err
}

// RecoverWebhookDeliveries delivers again every failed delivery of an endpoint since the
// time, for an owner or admin, and returns how many.
func (c *Console) RecoverWebhookDeliveries(ctx context.Context, mode apikey.Mode, email, organizerID, id string, since time.Time) (int, error) {
	as, err := c.webhooksFor(ctx, mode, email, organizerID, true)
	if err != nil {
		return 0, err
	}
	return c.hooks.Recover(ctx, as, id, since)
}
