package delivery

import (
	"context"
	"errors"
	"time"
)

// Lease is how long a claimed delivery is its dispatcher's: well above an attempt's bound and
// its recording, so no other instance attempts it meanwhile; a dispatcher that dies lets it go
// when the lease ends.
const Lease = time.Minute

// ErrNotLeased is a delivery whose attempt was not recorded because it is no longer the
// claimer's: it was recorded by another, or failed since (its endpoint was disabled).
var ErrNotLeased = errors.New("the delivery is no longer this attempt's")

// Job is a claimed delivery, with what its attempt needs.
type Job struct {
	DeliveryID string
	EndpointID string
	URL        string
	// Secrets are the endpoint's live signing secrets, the newest first; SecretsErr says why
	// they could not be read.
	Secrets    []Secret
	SecretsErr error
	MessageID  string
	Body       []byte
	// Attempts counts the attempts made before this one.
	Attempts int
	// ScheduleBase is how many of them were made before a manual retry or recover restarted
	// the retry schedule (0 without one).
	ScheduleBase int
	// FirstAttemptAt is when the schedule's first attempt started; nil before it.
	FirstAttemptAt *time.Time
	// LeasedUntil is when the claim ends.
	LeasedUntil time.Time
}

// Claim asks for due deliveries: those pending with a next attempt at or before Now and no
// lease running then, at most Max in all, per endpoint at most PerEndpoint and per
// organization at most PerOrganization minus their deliveries leased until after Now, none of
// the endpoints in Skip. Organizations take turns: each one's delivery due the longest first,
// then each one's second, and so on. Each is leased until LeaseUntil.
type Claim struct {
	Now             time.Time
	LeaseUntil      time.Time
	Max             int
	PerEndpoint     int
	PerOrganization int
	Skip            []string
}

// Record is an attempt made of a claimed job.
type Record struct {
	Job     Job
	Attempt Attempt
	Latency time.Duration
}

// Backlog is what waits to be delivered: the deliveries due and when the oldest was due (nil
// with none).
type Backlog struct {
	Due       int64
	OldestDue *time.Time
}

// Store keeps the deliveries.
type Store interface {
	// Claim leases the due deliveries c asks for and returns them.
	Claim(ctx context.Context, c Claim) ([]Job, error)
	// Record stores r and its outcome in one transaction, the outcome being what decide
	// answers for the endpoint's failing_since as locked: the attempt, the delivery's new
	// state, the endpoint's failing_since and, when the outcome disables it, the endpoint
	// disabled and its other pending deliveries failed. It fails with ErrNotLeased when the
	// delivery is no longer pending at r's attempts.
	Record(ctx context.Context, r Record, decide func(failingSince *time.Time) Outcome) (Outcome, error)
	// Backlog reads the deliveries due at now.
	Backlog(ctx context.Context, now time.Time) (Backlog, error)
}
