package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// outboxMessage is an element of EnqueueEvents' messages.
type outboxMessage struct {
	Topic   string          `json:"topic"`
	Key     string          `json:"key"`
	Payload json.RawMessage `json:"payload"`
	Headers json.RawMessage `json:"headers"`
}

// enqueue writes events to the outbox inside tx (a transaction, or a queue of one) with one
// statement, in their order, and wakes the relay once it commits.
func enqueue(ctx context.Context, tx db.DBTX, events ...outbox.Event) error {
	if len(events) == 0 {
		return nil
	}
	msgs := make([]outboxMessage, len(events))
	for i, e := range events {
		payload, err := json.Marshal(e.Data)
		if err != nil {
			return fmt.Errorf("marshal %s: %w", e.Type, err)
		}
		m := outbox.Prepare(ctx, e.Topic, e.Key, e.Type, domain.EventSource)
		msgs[i] = outboxMessage{Topic: e.Topic, Key: e.Key, Payload: payload, Headers: m.Headers}
	}
	b, err := json.Marshal(msgs)
	if err != nil {
		return err
	}
	if err := db.New(tx).EnqueueEvents(ctx, b); err != nil {
		return fmt.Errorf("enqueue events: %w", err)
	}
	return outbox.Notify(ctx, tx)
}

// registrationEvents returns an event of type typ about each of regs (their Order set) at now.
func registrationEvents(typ string, regs []domain.Registration, now time.Time) []outbox.Event {
	out := make([]outbox.Event, len(regs))
	for i, r := range regs {
		out[i] = outbox.Event{Topic: domain.RegistrationsTopic, Key: r.ID, Type: typ, Data: domain.NewRegistrationEvent(r, now)}
	}
	return out
}

// orderEvent returns an event of type typ about order o with its data.
func orderEvent(o domain.Order, typ string, data any) outbox.Event {
	return outbox.Event{Topic: domain.OrdersTopic, Key: o.ID, Type: typ, Data: data}
}

// withOrder returns regs with their Order set to o.
func withOrder(regs []domain.Registration, o domain.Order) []domain.Registration {
	out := make([]domain.Registration, len(regs))
	for i, r := range regs {
		r.Order = &o
		out[i] = r
	}
	return out
}

// createdEvents returns the creation events of regs, the registrations of a new order o: a
// registration is created when it is confirmed, so an order made COMPLETED (the organizer's)
// has them and a hold has none.
func createdEvents(o domain.Order, regs []domain.Registration) []outbox.Event {
	if o.Status != domain.OrderCompleted {
		return nil
	}
	return registrationEvents(domain.EventRegCreated, withOrder(regs, o), o.CreatedAt)
}
