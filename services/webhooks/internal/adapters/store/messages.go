package store

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// StoreEvents stores each of events, in their order, as a message with the object's next
// sequence and a pending delivery to each enabled subscribed endpoint, in one transaction that
// records the events' source ids in consumer's inbox: a redelivered event adds nothing. An event
// no endpoint subscribes to takes its sequence number but is not stored (its receivers'
// sequences stay increasing); one whose message is stored already (redelivered after the inbox
// forgot it) adds nothing. It returns how many events were new and the deliveries stored.
func (r *Repository) StoreEvents(ctx context.Context, consumer string, events []app.Received, now time.Time) (int, int, error) {
	sources := make([]string, len(events))
	bySource := make(map[string]domain.Event, len(events))
	for i, e := range events {
		sources[i] = e.SourceID
		if _, ok := bySource[e.SourceID]; !ok {
			bySource[e.SourceID] = e.Event
		}
	}
	deliveries := 0
	fresh, err := outbox.OnceEach(ctx, r.pool, consumer, sources, func(tx pgx.Tx, fresh []string) error {
		q := r.q.WithTx(tx)
		evs := make([]domain.Event, len(fresh))
		for i, id := range fresh {
			evs[i] = bySource[id]
		}
		subscribers, err := subscribersOf(ctx, q, evs)
		if err != nil {
			return err
		}
		seqs, err := takeSequences(ctx, q, evs)
		if err != nil {
			return err
		}
		var msgs []domain.Message
		var endpoints [][]string
		for i, e := range evs {
			if len(subscribers[i]) == 0 {
				continue
			}
			m, err := domain.NewMessage(e, seqs[i], fresh[i], now)
			if err != nil {
				return err
			}
			msgs, endpoints = append(msgs, m), append(endpoints, subscribers[i])
		}
		delivered, err := insertMessages(ctx, q, msgs, endpoints)
		deliveries = len(delivered)
		return err
	})
	return len(fresh), deliveries, err
}

// subscribersOf returns, for each of evs, the enabled endpoints of its organization and mode
// subscribed to its type, locked against a disable until the transaction ends.
func subscribersOf(ctx context.Context, q *db.Queries, evs []domain.Event) ([][]string, error) {
	organizers := make([]string, 0, len(evs))
	for _, e := range evs {
		organizers = append(organizers, e.OrganizerID)
	}
	slices.Sort(organizers)
	organizers = slices.Compact(organizers)
	rows, err := q.EnabledEndpointsOf(ctx, organizers)
	if err != nil {
		return nil, fmt.Errorf("enabled endpoints: %w", err)
	}
	byOrganizer := map[string][]db.EnabledEndpointsOfRow{}
	for _, ep := range rows {
		byOrganizer[ep.OrganizerID] = append(byOrganizer[ep.OrganizerID], ep)
	}
	out := make([][]string, len(evs))
	for i, e := range evs {
		for _, ep := range byOrganizer[e.OrganizerID] {
			if ep.Livemode == e.Livemode && slices.Contains(ep.EventTypes, e.Type) {
				out[i] = append(out[i], ep.ID)
			}
		}
	}
	return out, nil
}

// objectKey names an object's sequence.
type objectKey struct{ organizer, object string }

// takeSequences gives each of evs its object's next sequence number, in their order.
func takeSequences(ctx context.Context, q *db.Queries, evs []domain.Event) ([]int64, error) {
	counts := map[objectKey]int64{}
	for _, e := range evs {
		counts[objectKey{e.OrganizerID, e.ObjectID}]++
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b objectKey) int { // one lock order for every taker
		return cmp.Or(strings.Compare(a.organizer, b.organizer), strings.Compare(a.object, b.object))
	})
	p := db.TakeSequencesParams{}
	for _, k := range keys {
		p.OrganizerIds, p.ObjectIds, p.Counts = append(p.OrganizerIds, k.organizer), append(p.ObjectIds, k.object), append(p.Counts, counts[k])
	}
	rows, err := q.TakeSequences(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("take sequences: %w", err)
	}
	next := make(map[objectKey]int64, len(rows))
	for _, r := range rows {
		k := objectKey{r.OrganizerID, r.ObjectID}
		next[k] = r.Seq - counts[k] + 1
	}
	seqs := make([]int64, len(evs))
	for i, e := range evs {
		k := objectKey{e.OrganizerID, e.ObjectID}
		seqs[i] = next[k]
		next[k]++
	}
	return seqs, nil
}

// EnqueuePing stores m with one pending delivery to endpointID, an enabled endpoint of m's
// organization and mode.
func (r *Repository) EnqueuePing(ctx context.Context, m domain.Message, endpointID string) (domain.Delivery, error) {
	var delivered []string
	err := r.withEnabled(ctx, app.Owner{OrganizerID: m.OrganizerID, Livemode: m.Livemode}, endpointID, func(q *db.Queries) (err error) {
		delivered, err = insertMessages(ctx, q, []domain.Message{m}, [][]string{{endpointID}})
		return err
	})
	if err != nil {
		return domain.Delivery{}, err
	}
	d, _, err := r.Delivery(ctx, endpointID, delivered[0])
	return d, err
}

// insertMessages stores msgs, each with its deliveries to endpoints[i], and returns the
// deliveries' ids; none for a message whose source is stored already.
func insertMessages(ctx context.Context, q *db.Queries, msgs []domain.Message, endpoints [][]string) ([]string, error) {
	if len(msgs) == 0 {
		return nil, nil
	}
	p := db.InsertMessagesParams{CreatedAt: msgs[0].CreatedAt}
	for _, m := range msgs {
		p.Ids, p.OrganizerIds, p.Livemodes, p.Types = append(p.Ids, m.ID), append(p.OrganizerIds, m.OrganizerID), append(p.Livemodes, m.Livemode), append(p.Types, m.Type)
		p.ObjectIds, p.Sequences, p.OccurredAts = append(p.ObjectIds, m.ObjectID), append(p.Sequences, m.Sequence), append(p.OccurredAts, m.OccurredAt)
		p.Bodies, p.SourceIds = append(p.Bodies, m.Body), append(p.SourceIds, m.SourceID)
	}
	stored, err := q.InsertMessages(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("insert messages: %w", err)
	}
	isStored := make(map[string]bool, len(stored))
	for _, id := range stored {
		isStored[id] = true
	}
	d := db.InsertDeliveriesParams{Now: &p.CreatedAt}
	for i, m := range msgs {
		if !isStored[m.ID] {
			continue
		}
		for _, ep := range endpoints[i] {
			d.Ids, d.EndpointIds, d.MessageIds = append(d.Ids, ids.New(domain.DeliveryPrefix)), append(d.EndpointIds, ep), append(d.MessageIds, m.ID)
		}
	}
	if len(d.Ids) == 0 {
		return nil, nil
	}
	if err := q.InsertDeliveries(ctx, d); err != nil {
		return nil, fmt.Errorf("insert deliveries: %w", err)
	}
	return d.Ids, nil
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
