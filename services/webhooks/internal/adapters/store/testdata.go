package store

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
)

// DeleteTestData deletes, in one transaction, the organization's test endpoints with their
// secrets, deliveries, attempts and the messages only they referred to; live rows are never
// read for it. It waits for the organization's endpoint creates and for what adds deliveries
// to its test endpoints (fan-outs, pings, retries), so what it answers is all it deleted.
func (r *Repository) DeleteTestData(ctx context.Context, organizerID string) (app.TestDataDeleted, error) {
	var out app.TestDataDeleted
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		if err := q.LockOrganizerEndpoints(ctx, organizerID); err != nil {
			return err
		}
		ids, err := q.LockTestEndpoints(ctx, organizerID)
		if err != nil || len(ids) == 0 {
			return err
		}
		messages, err := q.DeleteTestDeliveries(ctx, db.DeleteTestDeliveriesParams{EndpointIds: ids, OrganizerID: organizerID})
		if err != nil {
			return err
		}
		out.Deliveries = len(messages)
		slices.Sort(messages)
		if err := q.DeleteTestMessages(ctx, db.DeleteTestMessagesParams{Ids: slices.Compact(messages), OrganizerID: organizerID}); err != nil {
			return err
		}
		n, err := q.DeleteTestEndpoints(ctx, db.DeleteTestEndpointsParams{Ids: ids, OrganizerID: organizerID})
		out.Endpoints = int(n)
		return err
	})
	if err != nil {
		return app.TestDataDeleted{}, err
	}
	return out, nil
}
