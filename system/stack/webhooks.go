package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// WebhookEventTypes are every type of webhook an endpoint may subscribe to.
var WebhookEventTypes = []string{
	"registration.created", "registration.updated", "registration.cancelled",
	"order.completed", "order.failed", "order.refunded",
	"checkout.session.expired", "event.updated", "pricing.changed",
	"ticket.checked_in",
	"waitlist.offered",
	"registration.transferred",
}

// webhookEndpointsPath is the organizer API's collection of webhook endpoints.
const webhookEndpointsPath = "/external/v1/organizer/webhook-endpoints"

// WebhookEndpoint is an endpoint as the organizer API answers its creation, the one answer
// that shows its secret.
type WebhookEndpoint struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	EventTypes  []string `json:"eventTypes"`
	Description string   `json:"description"`
	Status      string   `json:"status"`
	Livemode    bool     `json:"livemode"`
	Secret      string   `json:"secret"`
}

// WebhooksURL is the webhooks service's base URL (its internal API; the organizer API reaches
// it through the gateway).
func (s *Stack) WebhooksURL() string { return s.URLs["webhooks"] }

// CreateWebhookEndpoint registers url for eventTypes through the gateway's organizer API, with
// a secret key holding webhooks:write (the key's organizer owns the endpoint).
func (s *Stack) CreateWebhookEndpoint(ctx context.Context, secretKey, url, description string, eventTypes []string) (WebhookEndpoint, error) {
	body, err := json.Marshal(map[string]any{"url": url, "eventTypes": eventTypes, "description": description})
	if err != nil {
		return WebhookEndpoint{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.GatewayURL()+webhookEndpointsPath, bytes.NewReader(body))
	if err != nil {
		return WebhookEndpoint{}, err
	}
	req.Header.Set("Authorization", "Bearer "+secretKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
	if err != nil {
		return WebhookEndpoint{}, fmt.Errorf("stack: create webhook endpoint: %w", err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return WebhookEndpoint{}, fmt.Errorf("stack: create webhook endpoint: %w", err)
	}
	if res.StatusCode != http.StatusCreated {
		return WebhookEndpoint{}, fmt.Errorf("stack: create webhook endpoint: %s: %s", res.Status, answer)
	}
	var e WebhookEndpoint
	if err := json.Unmarshal(answer, &e); err != nil {
		return WebhookEndpoint{}, fmt.Errorf("stack: create webhook endpoint answered %q: %w", answer, err)
	}
	if e.ID == "" || e.Secret == "" {
		return WebhookEndpoint{}, fmt.Errorf("stack: create webhook endpoint answered %q: want an id and a secret", answer)
	}
	return e, nil
}

// RegisterReceiver registers r as an endpoint of the organizer of secretKey (a secret key with
// webhooks:write) for eventTypes (every type when none are given), and sets r's secret to the
// endpoint's.
func (s *Stack) RegisterReceiver(ctx context.Context, r *Receiver, secretKey string, eventTypes ...string) (WebhookEndpoint, error) {
	if len(eventTypes) == 0 {
		eventTypes = WebhookEventTypes
	}
	e, err := s.CreateWebhookEndpoint(ctx, secretKey, r.EndpointURL(), "local receiver "+r.URL, eventTypes)
	if err != nil {
		return WebhookEndpoint{}, err
	}
	return e, r.SetSecret(e.Secret)
}

// StartWebhookReceiver starts a Receiver on a free loopback port and registers it, as
// RegisterReceiver does; the caller closes it.
func (s *Stack) StartWebhookReceiver(ctx context.Context, o ReceiverOptions, secretKey string, eventTypes ...string) (*Receiver, WebhookEndpoint, error) {
	r, err := StartReceiver("127.0.0.1:0", o)
	if err != nil {
		return nil, WebhookEndpoint{}, err
	}
	e, err := s.RegisterReceiver(ctx, r, secretKey, eventTypes...)
	if err != nil {
		_ = r.Close()
		return nil, WebhookEndpoint{}, err
	}
	return r, e, nil
}
