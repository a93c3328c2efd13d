package webhooks

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

const basePath = "/internal/v1/webhook-endpoints"

func endpointPath(id string) string { return basePath + "/" + url.PathEscape(id) }

func deliveryPath(endpointID, deliveryID string) string {
	return endpointPath(endpointID) + "/deliveries/" + url.PathEscape(deliveryID)
}

func pageQuery(p domain.Page) string {
	return "?limit=" + strconv.Itoa(p.Limit) + "&offset=" + strconv.Itoa(p.Offset)
}

// Endpoints reads GET /internal/v1/webhook-endpoints.
func (c *Client) Endpoints(ctx context.Context, as app.WebhooksCaller, p domain.Page) ([]domain.WebhookEndpoint, int, error) {
	var list listDoc[endpointDoc]
	if err := c.do(ctx, as, http.MethodGet, basePath+pageQuery(p), nil, &list); err != nil {
		return nil, 0, err
	}
	return mapAll(list.Data, endpointDoc.toDomain), list.Total, nil
}

// Endpoint reads GET /internal/v1/webhook-endpoints/{endpointId}.
func (c *Client) Endpoint(ctx context.Context, as app.WebhooksCaller, id string) (domain.WebhookEndpoint, error) {
	var e endpointDoc
	err := c.do(ctx, as, http.MethodGet, endpointPath(id), nil, &e)
	return e.toDomain(), err
}

// CreateEndpoint sends POST /internal/v1/webhook-endpoints.
func (c *Client) CreateEndpoint(ctx context.Context, as app.WebhooksCaller, r domain.WebhookEndpointRequest) (domain.WebhookSecret, error) {
	var s createdDoc
	in := endpointRequest{URL: r.URL, EventTypes: r.EventTypes, Description: r.Description}
	err := c.do(ctx, as, http.MethodPost, basePath, in, &s)
	return s.toDomain(), err
}

// SetEndpointEnabled sends PATCH /internal/v1/webhook-endpoints/{endpointId} {enabled}.
func (c *Client) SetEndpointEnabled(ctx context.Context, as app.WebhooksCaller, id string, enabled bool) (domain.WebhookEndpoint, error) {
	var e endpointDoc
	err := c.do(ctx, as, http.MethodPatch, endpointPath(id), enabledRequest{Enabled: enabled}, &e)
	return e.toDomain(), err
}

// DeleteEndpoint sends DELETE /internal/v1/webhook-endpoints/{endpointId}.
func (c *Client) DeleteEndpoint(ctx context.Context, as app.WebhooksCaller, id string) (domain.WebhookEndpoint, error) {
	var e endpointDoc
	err := c.do(ctx, as, http.MethodDelete, endpointPath(id), nil, &e)
	return e.toDomain(), err
}

// RotateSecret sends POST /internal/v1/webhook-endpoints/{endpointId}/rotate-secret.
func (c *Client) RotateSecret(ctx context.Context, as app.WebhooksCaller, id string) (domain.WebhookSecret, error) {
	var s rotatedDoc
	err := c.do(ctx, as, http.MethodPost, endpointPath(id)+"/rotate-secret", nil, &s)
	return s.toDomain(), err
}

// SendTest sends POST /internal/v1/webhook-endpoints/{endpointId}/test.
func (c *Client) SendTest(ctx context.Context, as app.WebhooksCaller, id string) (domain.WebhookDelivery, error) {
	var t struct {
		Delivery deliveryDoc `json:"delivery"`
	}
	err := c.do(ctx, as, http.MethodPost, endpointPath(id)+"/test", nil, &t)
	return t.Delivery.toDomain(), err
}

// Deliveries reads GET /internal/v1/webhook-endpoints/{endpointId}/deliveries.
func (c *Client) Deliveries(ctx context.Context, as app.WebhooksCaller, id string, p domain.Page) ([]domain.WebhookDelivery, int, error) {
	var list listDoc[deliveryDoc]
	if err := c.do(ctx, as, http.MethodGet, endpointPath(id)+"/deliveries"+pageQuery(p), nil, &list); err != nil {
		return nil, 0, err
	}
	return mapAll(list.Data, deliveryDoc.toDomain), list.Total, nil
}

// Delivery reads GET /internal/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}.
func (c *Client) Delivery(ctx context.Context, as app.WebhooksCaller, endpointID, deliveryID string) (domain.WebhookDelivery, error) {
	var d deliveryDetailDoc
	err := c.do(ctx, as, http.MethodGet, deliveryPath(endpointID, deliveryID), nil, &d)
	return d.toDomain(), err
}

// RetryDelivery sends POST .../deliveries/{deliveryId}/retry.
func (c *Client) RetryDelivery(ctx context.Context, as app.WebhooksCaller, endpointID, deliveryID string) (domain.WebhookDelivery, error) {
	var d deliveryDoc
	err := c.do(ctx, as, http.MethodPost, deliveryPath(endpointID, deliveryID)+"/retry", nil, &d)
	return d.toDomain(), err
}

// Recover sends POST /internal/v1/webhook-endpoints/{endpointId}/recover {since}.
func (c *Client) Recover(ctx context.Context, as app.WebhooksCaller, id string, since time.Time) (int, error) {
	var r struct {
		Recovered int `json:"recovered"`
	}
	err := c.do(ctx, as, http.MethodPost, endpointPath(id)+"/recover", recoverRequest{Since: since.UTC()}, &r)
	return r.Recovered, err
}
