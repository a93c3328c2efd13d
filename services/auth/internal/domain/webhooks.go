package domain

import "time"

// The webhooks service owns the organizers' webhook endpoints and their deliveries; the console
// shows and changes them through its internal API. These are its objects as the console reads
// them.

// WebhookEventTypes are the event types an endpoint subscribes to, in the order the console
// offers them.
var WebhookEventTypes = []string{
	"registration.created", "registration.updated", "registration.cancelled",
	"order.completed", "order.failed", "order.refunded",
	"checkout.session.expired", "event.updated", "pricing.changed",
	"ticket.checked_in",
}

// Why an endpoint was disabled.
const (
	// WebhookGone is an endpoint that answered 410 Gone.
	WebhookGone = "gone"
	// WebhookFailing is an endpoint whose deliveries failed for WebhookFailingDays days.
	WebhookFailing = "failing"
	// WebhookDisabledByOrganizer is an endpoint a member or the organizer API disabled.
	WebhookDisabledByOrganizer = "organizer"
)

// WebhookFailingDays is how long an endpoint fails before the webhooks service disables it.
const WebhookFailingDays = 5

// WebhookEndpoint is a URL the organizer's events are delivered to.
type WebhookEndpoint struct {
	ID          string
	URL         string
	EventTypes  []string
	Description string
	// Status is enabled or disabled; DisabledReason says why (WebhookGone, ...).
	Status         string
	DisabledReason string
	DisabledAt     *time.Time
	// FailingSince is the first failed attempt since the last success, if any.
	FailingSince *time.Time
	Livemode     bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Enabled reports whether the endpoint gets deliveries.
func (e WebhookEndpoint) Enabled() bool { return e.Status == "enabled" }

// WebhookEndpointRequest is a new endpoint as a member asks for it.
type WebhookEndpointRequest struct {
	URL         string
	EventTypes  []string
	Description string
}

// WebhookSecret is an endpoint with its signing secret, shown once: when the endpoint is
// created, and when the secret is rotated (the previous one then signs beside it until
// PreviousExpiresAt).
type WebhookSecret struct {
	Endpoint          WebhookEndpoint
	Secret            string
	PreviousExpiresAt *time.Time
}

// WebhookDelivery is one message delivered to one endpoint, with its attempts when read alone.
type WebhookDelivery struct {
	ID, MessageID, Type string
	// Status is pending, succeeded or failed.
	Status         string
	Attempts       int
	LastStatusCode *int
	LastLatencyMs  *int
	LastError      string
	NextAttemptAt  *time.Time
	CreatedAt      time.Time
	FinishedAt     *time.Time
	AttemptLog     []WebhookAttempt
}

// WebhookAttempt is one request of a delivery to its endpoint.
type WebhookAttempt struct {
	N          int
	StartedAt  time.Time
	StatusCode *int
	LatencyMs  int
	Error      string
}
