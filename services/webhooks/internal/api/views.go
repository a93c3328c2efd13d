package api

import (
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

type listView[T any] struct {
	Data   []T `json:"data"`
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

type endpointView struct {
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

func newEndpointView(ep domain.Endpoint) endpointView {
	v := endpointView{
		ID: ep.ID, URL: ep.URL, EventTypes: ep.EventTypes, Description: ep.Description, Status: ep.Status,
		DisabledAt: ep.DisabledAt, FailingSince: ep.FailingSince, Livemode: ep.Livemode, CreatedAt: ep.CreatedAt, UpdatedAt: ep.UpdatedAt,
	}
	if ep.DisabledReason != "" {
		v.DisabledReason = &ep.DisabledReason
	}
	return v
}

// secretView is an endpoint with its secret: the create's answer, and with
// previousSecretExpiresAt, the rotate's.
type secretView struct {
	endpointView
	Secret                  string     `json:"secret"`
	PreviousSecretExpiresAt *time.Time `json:"previousSecretExpiresAt,omitempty"`
}

func newSecretView(c app.Created) secretView {
	return secretView{endpointView: newEndpointView(c.Endpoint), Secret: c.Secret, PreviousSecretExpiresAt: c.PreviousSecretExpiresAt}
}

type deliveryView struct {
	ID             string     `json:"id"`
	EndpointID     string     `json:"endpointId"`
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

func newDeliveryView(d domain.Delivery) deliveryView {
	v := deliveryView{
		ID: d.ID, EndpointID: d.EndpointID, MessageID: d.MessageID, Type: d.Type, Status: d.Status, Attempts: d.Attempts, LastStatusCode: d.LastStatusCode,
		LastLatencyMs: d.LastLatencyMs, NextAttemptAt: d.NextAttemptAt, CreatedAt: d.CreatedAt, FinishedAt: d.FinishedAt,
	}
	if d.LastError != "" {
		v.LastError = &d.LastError
	}
	return v
}

type attemptView struct {
	N          int       `json:"n"`
	StartedAt  time.Time `json:"startedAt"`
	StatusCode *int      `json:"statusCode"`
	LatencyMs  int       `json:"latencyMs"`
	Error      *string   `json:"error"`
}

type deliveryDetail struct {
	deliveryView
	AttemptLog []attemptView `json:"attemptLog"`
}

func newDeliveryDetail(d domain.Delivery, attempts []domain.Attempt) deliveryDetail {
	v := deliveryDetail{deliveryView: newDeliveryView(d), AttemptLog: make([]attemptView, len(attempts))}
	for i, a := range attempts {
		v.AttemptLog[i] = attemptView{N: a.N, StartedAt: a.StartedAt, StatusCode: a.StatusCode, LatencyMs: a.LatencyMs}
		if a.Error != "" {
			v.AttemptLog[i].Error = &a.Error
		}
	}
	return v
}

type testView struct {
	Delivery deliveryView `json:"delivery"`
}

type recoveredView struct {
	Recovered int `json:"recovered"`
}
