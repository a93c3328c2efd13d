package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// errInFlight refuses a retry of a delivery being attempted.
var errInFlight = fault.NewConflict("the delivery is being attempted; retry it once the attempt ended")

// Deliveries returns a page of endpointID's deliveries with status ("" for any), newest
// first, and their total.
func (r *Repository) Deliveries(ctx context.Context, endpointID, status string, page domain.Page) ([]domain.Delivery, int, error) {
	s := orNil(status)
	total, err := r.q.CountDeliveries(ctx, db.CountDeliveriesParams{EndpointID: endpointID, Status: s})
	if err != nil {
		return nil, 0, err
	}
	rows, err := r.q.ListDeliveries(ctx, db.ListDeliveriesParams{
		EndpointID: endpointID, Status: s, Limit: int32(page.Limit), Offset: int32(page.Offset), //nolint:gosec // bounded by the API
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]domain.Delivery, len(rows))
	for i, row := range rows {
		out[i] = toDelivery(row.Delivery, row.Type)
	}
	return out, int(total), nil
}

// Delivery returns a delivery of endpointID with its attempts, or domain.ErrDeliveryNotFound.
func (r *Repository) Delivery(ctx context.Context, endpointID, id string) (domain.Delivery, []domain.Attempt, error) {
	row, err := r.q.GetDelivery(ctx, db.GetDeliveryParams{ID: id, EndpointID: endpointID})
	if err != nil {
		return domain.Delivery{}, nil, notFound(err, domain.ErrDeliveryNotFound)
	}
	rows, err := r.q.ListAttempts(ctx, id)
	if err != nil {
		return domain.Delivery{}, nil, err
	}
	attempts := make([]domain.Attempt, len(rows))
	for i, a := range rows {
		attempts[i] = toAttempt(a)
	}
	return toDelivery(row.Delivery, row.Type), attempts, nil
}

// RetryDelivery makes a delivery of an enabled endpoint of org pending and due at now, unless
// it is being attempted.
func (r *Repository) RetryDelivery(ctx context.Context, org app.Owner, endpointID, id string, now time.Time) (domain.Delivery, error) {
	var n int64
	err := r.withEnabled(ctx, org, endpointID, func(q *db.Queries) (err error) {
		n, err = q.RetryDelivery(ctx, db.RetryDeliveryParams{ID: id, EndpointID: endpointID, NextAttemptAt: &now})
		return err
	})
	if err != nil {
		return domain.Delivery{}, err
	}
	d, _, err := r.Delivery(ctx, endpointID, id)
	if err == nil && n == 0 {
		err = errInFlight
	}
	return d, err
}

// recoverBatch is how many deliveries one statement of a recover makes pending, well within
// the statement timeout.
const recoverBatch = 5000

// RecoverDeliveries makes the failed deliveries of an enabled endpoint of org created since
// since pending and due at now, recoverBatch at a time, each batch in a transaction of its
// own, and returns how many. A recover cut short (the request's deadline) keeps the batches it
// made; calling it again recovers the rest.
func (r *Repository) RecoverDeliveries(ctx context.Context, org app.Owner, endpointID string, since, now time.Time) (int, error) {
	total := 0
	for {
		var n int64
		err := r.withEnabled(ctx, org, endpointID, func(q *db.Queries) (err error) {
			n, err = q.RecoverDeliveries(ctx, db.RecoverDeliveriesParams{EndpointID: endpointID, CreatedAt: since, NextAttemptAt: &now, Batch: recoverBatch})
			return err
		})
		total += int(n)
		if err != nil || n < recoverBatch {
			return total, err
		}
	}
}

// withEnabled runs fn in a transaction that shares the lock of an endpoint of org, so that a
// concurrent disable waits and then fails the deliveries fn makes pending; an endpoint that is
// disabled is domain.ErrEndpointDisabled, one org does not have domain.ErrEndpointNotFound.
func (r *Repository) withEnabled(ctx context.Context, org app.Owner, endpointID string, fn func(q *db.Queries) error) error {
	return postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		status, err := q.LockEndpointStatus(ctx, db.LockEndpointStatusParams{ID: endpointID, OrganizerID: org.OrganizerID, Livemode: org.Livemode})
		if err != nil {
			return notFound(err, domain.ErrEndpointNotFound)
		}
		if status != domain.StatusEnabled {
			return domain.ErrEndpointDisabled
		}
		return fn(q)
	})
}
