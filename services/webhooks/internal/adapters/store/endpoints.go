package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// CreateEndpoint stores ep and its sealed secret unless its organization and mode reached max.
func (r *Repository) CreateEndpoint(ctx context.Context, ep domain.Endpoint, sealed []byte, limit int) error {
	return postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if err := q.LockOrganizerEndpoints(ctx, ep.OrganizerID); err != nil {
			return err
		}
		n, err := q.CountEndpoints(ctx, db.CountEndpointsParams{OrganizerID: ep.OrganizerID, Livemode: ep.Livemode})
		if err != nil {
			return err
		}
		if n >= int64(limit) {
			return domain.EndpointLimitError(limit)
		}
		if err := q.InsertEndpoint(ctx, db.InsertEndpointParams{
			ID: ep.ID, OrganizerID: ep.OrganizerID, Livemode: ep.Livemode, Url: ep.URL, Description: ep.Description,
			EventTypes: ep.EventTypes, CreatedAt: ep.CreatedAt,
		}); err != nil {
			return fmt.Errorf("insert endpoint: %w", err)
		}
		return q.InsertSecret(ctx, db.InsertSecretParams{EndpointID: ep.ID, Sealed: sealed, CreatedAt: ep.CreatedAt})
	})
}

// Endpoint returns an endpoint of org, or domain.ErrEndpointNotFound.
func (r *Repository) Endpoint(ctx context.Context, org app.Owner, id string) (domain.Endpoint, error) {
	row, err := r.q.GetEndpoint(ctx, db.GetEndpointParams{ID: id, OrganizerID: org.OrganizerID, Livemode: org.Livemode})
	if err != nil {
		return domain.Endpoint{}, notFound(err, domain.ErrEndpointNotFound)
	}
	return toEndpoint(row), nil
}

// Endpoints returns a page of org's endpoints, newest first, and their total.
func (r *Repository) Endpoints(ctx context.Context, org app.Owner, page domain.Page) ([]domain.Endpoint, int, error) {
	total, err := r.q.CountEndpoints(ctx, db.CountEndpointsParams{OrganizerID: org.OrganizerID, Livemode: org.Livemode})
	if err != nil {
		return nil, 0, err
	}
	rows, err := r.q.ListEndpoints(ctx, db.ListEndpointsParams{
		OrganizerID: org.OrganizerID, Livemode: org.Livemode, Limit: int32(page.Limit), Offset: int32(page.Offset), //nolint:gosec // bounded by the API
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]domain.Endpoint, len(rows))
	for i, row := range rows {
		out[i] = toEndpoint(row)
	}
	return out, int(total), nil
}

// lockedEndpoint runs fn on an endpoint of org locked in a transaction, and returns it as fn
// left it; an endpoint org does not have is domain.ErrEndpointNotFound.
func (r *Repository) lockedEndpoint(ctx context.Context, org app.Owner, id string, fn func(q *db.Queries, ep *domain.Endpoint) error) (domain.Endpoint, error) {
	var ep domain.Endpoint
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		row, err := q.GetEndpointForUpdate(ctx, db.GetEndpointForUpdateParams{ID: id, OrganizerID: org.OrganizerID, Livemode: org.Livemode})
		if err != nil {
			return notFound(err, domain.ErrEndpointNotFound)
		}
		ep = toEndpoint(row)
		return fn(q, &ep)
	})
	return ep, err
}

// UpdateEndpoint applies change to the locked endpoint; an endpoint it disables has its pending
// deliveries failed in the same transaction.
func (r *Repository) UpdateEndpoint(ctx context.Context, org app.Owner, id string, now time.Time, change func(*domain.Endpoint) error) (domain.Endpoint, error) {
	return r.lockedEndpoint(ctx, org, id, func(q *db.Queries, ep *domain.Endpoint) error {
		wasEnabled := ep.Status == domain.StatusEnabled
		if err := change(ep); err != nil {
			return err
		}
		if err := q.UpdateEndpoint(ctx, db.UpdateEndpointParams{
			ID: id, Url: ep.URL, Description: ep.Description, EventTypes: ep.EventTypes, Status: ep.Status,
			DisabledReason: orNil(ep.DisabledReason), DisabledAt: ep.DisabledAt, FailingSince: ep.FailingSince,
			NotifiedAt: ep.NotifiedAt, UpdatedAt: ep.UpdatedAt,
		}); err != nil {
			return err
		}
		if !wasEnabled || ep.Status == domain.StatusEnabled {
			return nil
		}
		return q.FailPendingDeliveries(ctx, db.FailPendingDeliveriesParams{EndpointID: id, Now: now})
	})
}

// deleteBatch is how many deliveries one statement of an endpoint's delete deletes.
const deleteBatch = 1000

// DeleteEndpoint deletes an endpoint of org and returns it as it was: first its deliveries,
// deleteBatch at a time, each in a statement of its own within the statement timeout, then
// the endpoint with its secrets and the deliveries added meanwhile (they cascade).
func (r *Repository) DeleteEndpoint(ctx context.Context, org app.Owner, id string) (domain.Endpoint, error) {
	for {
		n, err := r.q.DeleteEndpointDeliveries(ctx, db.DeleteEndpointDeliveriesParams{ID: id, OrganizerID: org.OrganizerID, Livemode: org.Livemode, Batch: deleteBatch})
		if err != nil {
			return domain.Endpoint{}, fmt.Errorf("delete deliveries: %w", err)
		}
		if n < deleteBatch {
			break
		}
	}
	return r.lockedEndpoint(ctx, org, id, func(q *db.Queries, _ *domain.Endpoint) error {
		_, err := q.DeleteEndpoint(ctx, db.DeleteEndpointParams{ID: id, OrganizerID: org.OrganizerID, Livemode: org.Livemode})
		return err
	})
}

// RotateSecret expires the endpoint's current secret at expiresAt (one already being replaced
// at now) and stores sealed as the new current one.
func (r *Repository) RotateSecret(ctx context.Context, org app.Owner, id string, sealed []byte, now, expiresAt time.Time) (domain.Endpoint, error) {
	return r.lockedEndpoint(ctx, org, id, func(q *db.Queries, _ *domain.Endpoint) error {
		if err := q.ExpireSecrets(ctx, db.ExpireSecretsParams{EndpointID: id, ExpiresAt: expiresAt, Now: now}); err != nil {
			return err
		}
		return q.InsertSecret(ctx, db.InsertSecretParams{EndpointID: id, Sealed: sealed, CreatedAt: now})
	})
}
