package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/outbox"
	registrationevents "github.com/podiumhq/podium/services/registration/events"
)

// The producer event the webhooks scenario commits: an organizer's update of a registration,
// as registration publishes it, which becomes a registration.updated webhook.
const (
	updatedTopic   = "registration.registrations.v1"
	updatedType    = "podium.registration.registration.updated.v1"
	updatedExample = updatedTopic + "/examples/" + updatedType + ".json"
	updatedSource  = "podium/registration"
)

// updates builds registration.updated events from the producer's own example, each for a
// registration of its own, spread over the organizers in turn.
type updates struct {
	organizers []string
	object     map[string]json.RawMessage
}

func newUpdates(organizers []string) (*updates, error) {
	raw, err := fs.ReadFile(registrationevents.Files, updatedExample)
	if err != nil {
		return nil, err
	}
	var example struct {
		Object map[string]json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(raw, &example); err != nil {
		return nil, fmt.Errorf("bench: %s: %w", updatedExample, err)
	}
	return &updates{organizers: organizers, object: example.Object}, nil
}

// registrationID is the id of the registration the n-th event updates.
func registrationID(n int) string { return fmt.Sprintf("reg_bench%d", n) }

// event is the n-th update, occurring at.
func (u *updates) event(n int, at time.Time) (outbox.Event, error) {
	id := registrationID(n)
	object := maps.Clone(u.object)
	var err error
	if object["registrationId"], err = json.Marshal(id); err != nil {
		return outbox.Event{}, err
	}
	if object["updatedAt"], err = json.Marshal(at.UTC()); err != nil {
		return outbox.Event{}, err
	}
	return outbox.Event{Topic: updatedTopic, Key: id, Type: updatedType, Source: updatedSource, Data: map[string]any{
		"organizerId": u.organizers[n%len(u.organizers)], "livemode": true, "occurredAt": at.UTC(), "object": object,
	}}, nil
}

// commitUpdate commits the n-th update alone, telling r when it commits.
func (u *updates) commitUpdate(ctx context.Context, pool *pgxpool.Pool, r *receivers, n int) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		now := time.Now()
		e, err := u.event(n, now)
		if err != nil {
			return err
		}
		r.committing(registrationID(n), now)
		_, err = outbox.Enqueue(ctx, tx, e)
		return err
	})
}

// commitUpdates commits updates first, first+1, ... first+count-1 in one transaction.
func (u *updates) commitUpdates(ctx context.Context, pool *pgxpool.Pool, r *receivers, first, count int) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		for n := first; n < first+count; n++ {
			now := time.Now()
			e, err := u.event(n, now)
			if err != nil {
				return err
			}
			r.committing(registrationID(n), now)
			if _, err := outbox.Enqueue(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
}
