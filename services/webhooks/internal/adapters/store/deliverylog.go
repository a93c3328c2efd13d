package store

import (
	"context"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
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

// RetryDelivery makes a delivery of endpointID pending and due at now, unless it is being
// attempted.
func (r *Repository) RetryDelivery(ctx context.Context, endpointID, id string, now time.Time) (domain.Delivery, error) {
	n, err := r.q.RetryDelivery(ctx, db.RetryDeliveryParams{ID: id, EndpointID: endpointID, NextAttemptAt: &now})
	if err != nil {
		return domain.Delivery{}, err
	}
	d, _, err := r.Delivery(ctx, endpointID, id)
	if err == nil && n == 0 {
		err = errInFlight
	}
	return d, err
}

// RecoverDeliveries makes the failed deliveries of endpointID created since since pending and
// due at now, and returns how many.
func (r *Repository) RecoverDeliveries(ctx context.Context, endpointID string, since, now time.Time) (int, error) {
	n, err := r.q.RecoverDeliveries(ctx, db.RecoverDeliveriesParams{EndpointID: endpointID, CreatedAt: since, NextAttemptAt: &now})
	return int(n), err
}
