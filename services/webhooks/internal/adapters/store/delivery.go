package store

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// Deliveries is the dispatcher's store (delivery.Store) on Postgres.
type Deliveries struct {
	pool   *pgxpool.Pool
	q      *db.Queries
	unseal func(sealed []byte) (string, error)
}

var _ delivery.Store = (*Deliveries)(nil)

// NewDeliveries returns the deliveries of pool; unseal opens an endpoint secret as stored
// (endpoint_secrets.sealed) into its whsec_ text.
func NewDeliveries(pool *pgxpool.Pool, unseal func(sealed []byte) (string, error)) *Deliveries {
	return &Deliveries{pool: pool, q: db.New(pool), unseal: unseal}
}

// Claim leases the due deliveries c asks for and returns them with their endpoints' live
// secrets, read in the same transaction.
func (s *Deliveries) Claim(ctx context.Context, c delivery.Claim) ([]delivery.Job, error) {
	var rows []db.ClaimDeliveriesRow
	var secrets []db.LiveSecretsRow
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		var err error
		rows, err = q.ClaimDeliveries(ctx, db.ClaimDeliveriesParams{
			Now: c.Now, LeaseUntil: c.LeaseUntil, PerEndpoint: clampInt32(c.PerEndpoint),
			Skip: append([]string{}, c.Skip...), MaxJobs: clampInt32(c.Max),
		})
		if err != nil || len(rows) == 0 {
			return err
		}
		endpoints := make([]string, 0, len(rows))
		for _, r := range rows {
			endpoints = append(endpoints, r.EndpointID)
		}
		secrets, err = q.LiveSecrets(ctx, db.LiveSecretsParams{EndpointIds: endpoints, Now: c.Now})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	keys := s.openSecrets(secrets)
	jobs := make([]delivery.Job, len(rows))
	for i, r := range rows {
		k := keys[r.EndpointID]
		jobs[i] = delivery.Job{
			DeliveryID: r.ID, EndpointID: r.EndpointID, URL: r.Url, MessageID: r.MessageID, Body: r.Body,
			Secrets: k.secrets, SecretsErr: k.err, Attempts: int(r.Attempts), FirstAttemptAt: utc(r.FirstAttemptAt),
			LeasedUntil: c.LeaseUntil,
		}
	}
	return jobs, nil
}

// endpointKeys are an endpoint's opened secrets, or why one could not be opened.
type endpointKeys struct {
	secrets []delivery.Secret
	err     error
}

// openSecrets opens the sealed secrets, keeping each endpoint's in their order.
func (s *Deliveries) openSecrets(rows []db.LiveSecretsRow) map[string]endpointKeys {
	keys := map[string]endpointKeys{}
	for _, r := range rows {
		k := keys[r.EndpointID]
		if k.err != nil {
			continue
		}
		text, err := s.unseal(r.Sealed)
		if err != nil {
			keys[r.EndpointID] = endpointKeys{err: fmt.Errorf("open secret: %w", err)}
			continue
		}
		secret, err := delivery.ParseSecret(text)
		if err != nil {
			keys[r.EndpointID] = endpointKeys{err: err}
			continue
		}
		k.secrets = append(k.secrets, secret)
		keys[r.EndpointID] = k
	}
	return keys
}

// Record stores an attempt and its outcome in one transaction, the endpoint locked while
// decide reads its failing_since (see delivery.Store).
func (s *Deliveries) Record(ctx context.Context, r delivery.Record, decide func(failingSince *time.Time) delivery.Outcome) (delivery.Outcome, error) {
	var o delivery.Outcome
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		failingSince, err := q.LockEndpointFailingSince(ctx, r.Job.EndpointID)
		if postgres.IsNoRows(err) {
			return delivery.ErrNotLeased // the endpoint and its deliveries were deleted
		}
		if err != nil {
			return fmt.Errorf("lock endpoint: %w", err)
		}
		o = decide(utc(failingSince))
		if err := recordAttempt(ctx, q, r, o); err != nil {
			return err
		}
		if err := q.SetEndpointFailingSince(ctx, db.SetEndpointFailingSinceParams{ID: r.Job.EndpointID, FailingSince: o.FailingSince}); err != nil {
			return fmt.Errorf("set failing since: %w", err)
		}
		if o.Disable == "" {
			return nil
		}
		return disable(ctx, q, r.Job.EndpointID, o)
	})
	if err != nil {
		return delivery.Outcome{}, fmt.Errorf("record delivery attempt: %w", err)
	}
	return o, nil
}

// recordAttempt writes the attempt and the delivery's state after it, if the delivery is still
// pending after the attempts before it.
func recordAttempt(ctx context.Context, q *db.Queries, r delivery.Record, o delivery.Outcome) error {
	a, res := r.Attempt, r.Attempt.Response
	latency := clampInt32(int(r.Latency / time.Millisecond))
	var statusCode *int32
	if res.StatusCode != 0 {
		code := clampInt32(res.StatusCode)
		statusCode = &code
	}
	update := db.RecordDeliveryAttemptParams{
		ID: r.Job.DeliveryID, Status: string(o.Status), N: clampInt32(a.N), StartedAt: a.StartedAt,
		StatusCode: statusCode, LatencyMs: latency,
	}
	if o.Error != "" {
		update.Error = &o.Error
	}
	if o.Status == delivery.Pending {
		update.NextAttemptAt = &o.NextAttemptAt
	} else {
		update.FinishedAt = &o.At
	}
	n, err := q.RecordDeliveryAttempt(ctx, update)
	if err != nil {
		return fmt.Errorf("update delivery: %w", err)
	}
	if n == 0 {
		return delivery.ErrNotLeased
	}
	err = q.InsertAttempt(ctx, db.InsertAttemptParams{
		DeliveryID: r.Job.DeliveryID, N: update.N, StartedAt: a.StartedAt, StatusCode: statusCode,
		LatencyMs: latency, Error: o.Error, ResponseExcerpt: res.Excerpt,
	})
	if err != nil {
		return fmt.Errorf("insert attempt: %w", err)
	}
	return nil
}

// disable disables the endpoint for the outcome's reason and fails its pending deliveries.
func disable(ctx context.Context, q *db.Queries, endpoint string, o delivery.Outcome) error {
	if err := q.DisableFailedEndpoint(ctx, db.DisableFailedEndpointParams{ID: endpoint, Reason: string(o.Disable), Now: o.At}); err != nil {
		return fmt.Errorf("disable endpoint: %w", err)
	}
	if err := q.FailPendingDeliveries(ctx, db.FailPendingDeliveriesParams{EndpointID: endpoint, Now: o.At}); err != nil {
		return fmt.Errorf("fail pending deliveries: %w", err)
	}
	return nil
}

// Backlog reads the deliveries due at now that no lease holds.
func (s *Deliveries) Backlog(ctx context.Context, now time.Time) (delivery.Backlog, error) {
	row, err := s.q.DeliveryBacklog(ctx, now)
	if err != nil {
		return delivery.Backlog{}, fmt.Errorf("delivery backlog: %w", err)
	}
	b := delivery.Backlog{Due: row.Due}
	if row.Due > 0 {
		b.OldestDue = utc(&row.OldestDue)
	}
	return b, nil
}

func clampInt32(n int) int32 {
	return int32(min(max(n, math.MinInt32), math.MaxInt32)) //nolint:gosec // clamped to the range
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
