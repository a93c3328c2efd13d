package domain

import "time"

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
)

// Delivery is a message owed to one endpoint, as its log shows it.
type Delivery struct {
	ID             string
	EndpointID     string
	MessageID      string
	Type           string
	Status         string
	Attempts       int
	LastStatusCode *int
	LastLatencyMs  *int
	LastError      string
	NextAttemptAt  *time.Time
	CreatedAt      time.Time
	FinishedAt     *time.Time
}

// Attempt is one try of a delivery.
type Attempt struct {
	N          int
	StartedAt  time.Time
	StatusCode *int
	LatencyMs  int
	Error      string
}

// Page is a window of a list.
type Page struct{ Limit, Offset int }
