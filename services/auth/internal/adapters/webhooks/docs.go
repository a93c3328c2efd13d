package webhooks

import (
	"time"

	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// The bodies the console sends and reads, each checked against the webhooks service's
// contract (TestTheClientSendsAndReadsWhatTheContractSays).

type endpointRequest struct {
	URL         string   `json:"url"`
	EventTypes  []string `json:"eventTypes"`
	Description string   `json:"description"`
}

type enabledRequest struct {
	Enabled bool `json:"enabled"`
}

type recoverRequest struct {
	Since time.Time `json:"since"`
}

type listDoc[T any] struct {
	Data  []T `json:"data"`
	Total int `json:"total"`
}

type endpointDoc struct {
	ID             string     `json:"id"`
	URL            string     `json:"url"`
	EventTypes     []string   `json:"eventTypes"`
	Description    string     `json:"description"`
	Status         string     `json:"status"`
	DisabledReason *string    `json:"disabledReason"`
	DisabledAt     *time.Time `json:"disabledAt"`
	FailingSince   *time.Time `json:"failingSince"`
	Livemode       bool       `json:"livemode"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      time.Time  `json:"updatedAt"`
}

func (d endpointDoc) toDomain() domain.WebhookEndpoint {
	return domain.WebhookEndpoint{
		ID: d.ID, URL: d.URL, EventTypes: d.EventTypes, Description: d.Description, Status: d.Status,
		DisabledReason: deref(d.DisabledReason), DisabledAt: d.DisabledAt, FailingSince: d.FailingSince,
		Livemode: d.Livemode, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// createdDoc is a new endpoint with its secret.
type createdDoc struct {
	endpointDoc
	Secret string `json:"secret"`
}

func (d createdDoc) toDomain() domain.WebhookSecret {
	return domain.WebhookSecret{Endpoint: d.endpointDoc.toDomain(), Secret: d.Secret}
}

// rotatedDoc is an endpoint with its new secret and the end of the previous one.
type rotatedDoc struct {
	createdDoc
	PreviousSecretExpiresAt time.Time `json:"previousSecretExpiresAt"`
}

func (d rotatedDoc) toDomain() domain.WebhookSecret {
	s := d.createdDoc.toDomain()
	s.PreviousExpiresAt = &d.PreviousSecretExpiresAt
	return s
}

type deliveryDoc struct {
	ID             string     `json:"id"`
	MessageID      string     `json:"messageId"`
	Type           string     `json:"type"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	LastStatusCode *int       `json:"lastStatusCode"`
	LastLatencyMs  *int       `json:"lastLatencyMs"`
	LastError      *string    `json:"lastError"`
	NextAttemptAt  *time.Time `json:"nextAttemptAt"`
	CreatedAt      time.Time  `json:"createdAt"`
	FinishedAt     *time.Time `json:"finishedAt"`
}

// deliveryDetailDoc is a delivery read alone, with its attempts.
type deliveryDetailDoc struct {
	deliveryDoc
	AttemptLog []attemptDoc `json:"attemptLog"`
}

type attemptDoc struct {
	N          int       `json:"n"`
	StartedAt  time.Time `json:"startedAt"`
	StatusCode *int      `json:"statusCode"`
	LatencyMs  int       `json:"latencyMs"`
	Error      *string   `json:"error"`
}

func (d deliveryDoc) toDomain() domain.WebhookDelivery {
	return domain.WebhookDelivery{
		ID: d.ID, MessageID: d.MessageID, Type: d.Type, Status: d.Status, Attempts: d.Attempts,
		LastStatusCode: d.LastStatusCode, LastLatencyMs: d.LastLatencyMs, LastError: deref(d.LastError),
		NextAttemptAt: d.NextAttemptAt, CreatedAt: d.CreatedAt, FinishedAt: d.FinishedAt,
	}
}

func (d deliveryDetailDoc) toDomain() domain.WebhookDelivery {
	out := d.deliveryDoc.toDomain()
	for _, a := range d.AttemptLog {
		out.AttemptLog = append(out.AttemptLog, domain.WebhookAttempt{N: a.N, StartedAt: a.StartedAt, StatusCode: a.StatusCode, LatencyMs: a.LatencyMs, Error: deref(a.Error)})
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func mapAll[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
