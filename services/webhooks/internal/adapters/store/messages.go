package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// StoreEvent stores e as a message, with the object's next sequence and a pending delivery to
// each enabled subscribed endpoint, in the transaction that records sourceID in consumer's
// inbox: a redelivered event adds nothing. An event no endpoint subscribes to takes its
// sequence number but is not stored (its receivers' sequences stay increasing); one whose
// message is stored already (redelivered after the inbox forgot it) adds nothing.
func (r *Repository) StoreEvent(ctx context.Context, consumer string, e domain.Event, sourceID string, now time.Time) (bool, int, error) {
	n := 0
	stored, err := outbox.Once(ctx, r.pool, consumer, sourceID, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		endpoints, err := q.SubscribedEndpoints(ctx, db.SubscribedEndpointsParams{OrganizerID: e.OrganizerID, Livemode: e.Livemode, Type: e.Type})
		if err != nil {
			return fmt.Errorf("subscribed endpoints: %w", err)
		}
		seq, err := q.NextSequence(ctx, db.NextSequenceParams{OrganizerID: e.OrganizerID, ObjectID: e.ObjectID})
		if err != nil {
			return fmt.Errorf("next sequence: %w", err)
		}
		if len(endpoints) == 0 {
			return nil
		}
		m, err := domain.NewMessage(e, seq, sourceID, now)
		if err != nil {
			return err
		}
		delivered, err := insertMessage(ctx, q, m, endpoints)
		n = len(delivered)
		return err
	})
	return stored, n, err
}

// EnqueuePing stores m with one pending delivery to endpointID, an enabled endpoint of m's
// organization and mode.
func (r *Repository) EnqueuePing(ctx context.Context, m domain.Message, endpointID string) (domain.Delivery, error) {
	var delivered []string
	err := r.withEnabled(ctx, app.Owner{OrganizerID: m.OrganizerID, Livemode: m.Livemode}, endpointID, func(q *db.Queries) (err error) {
		delivered, err = insertMessage(ctx, q, m, []string{endpointID})
		return err
	})
	if err != nil {
		return domain.Delivery{}, err
	}
	d, _, err := r.Delivery(ctx, endpointID, delivered[0])
	return d, err
}

// insertMessage stores m and its deliveries to endpoints, and returns their ids; none when a
// message of m's source is stored already.
func insertMessage(ctx context.Context, q *db.Queries, m domain.Message, endpoints []string) ([]string, error) {
	var source *string
	if m.SourceID != "" {
		source = &m.SourceID
	}
	inserted, err := q.InsertMessage(ctx, db.InsertMessageParams{
		ID: m.ID, OrganizerID: m.OrganizerID, Livemode: m.Livemode, Type: m.Type, ObjectID: m.ObjectID,
		Sequence: m.Sequence, OccurredAt: m.OccurredAt, Body: m.Body, SourceID: source, CreatedAt: m.CreatedAt,
	})
	if err != nil {
		return nil, fmt.Errorf("insert message: %w", err)
	}
	if inserted == 0 {
		return nil, nil
	}
	deliveryIDs := make([]string, len(endpoints))
	for i := range endpoints {
		deliveryIDs[i] = ids.New(domain.DeliveryPrefix)
	}
	now := m.CreatedAt
	if err := q.InsertDeliveries(ctx, db.InsertDeliveriesParams{Ids: deliveryIDs, EndpointIds: endpoints, MessageID: m.ID, Now: &now}); err != nil {
		return nil, fmt.Errorf("insert deliveries: %w", err)
	}
	return deliveryIDs, nil
}

// inboxKeep is how long the consumer remembers the events it stored; Kafka redelivers only
// what was not committed, within minutes.
const inboxKeep = 7 * 24 * time.Hour

// Sweep deletes up to batch messages created before before, with their deliveries and
// attempts.
func (r *Repository) Sweep(ctx context.Context, before time.Time, batch int) (int64, error) {
	n, err := r.q.DeleteOldMessages(ctx, db.DeleteOldMessagesParams{Before: before, Batch: int32(batch)}) //nolint:gosec // a constant
	if err != nil {
		return n, fmt.Errorf("delete old messages: %w", err)
	}
	return n, nil
}

// SweepSecrets deletes the secrets expired by before.
func (r *Repository) SweepSecrets(ctx context.Context, before time.Time) error {
	if _, err := r.q.DeleteExpiredSecrets(ctx, &before); err != nil {
		return fmt.Errorf("delete expired secrets: %w", err)
	}
	return nil
}

// PruneInbox deletes the inbox records older than inboxKeep.
func (r *Repository) PruneInbox(ctx context.Context) error {
	_, err := outbox.PruneInbox(ctx, r.pool, inboxKeep)
	return err
}
