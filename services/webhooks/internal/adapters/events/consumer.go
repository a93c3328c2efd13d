// Package events consumes the producers' topics and stores each event that is a webhook as a
// message with its deliveries, before its offset is committed; the inbox in the same
// transaction makes a redelivery a no-op.
package events

import (
	"context"
	"errors"
	"log/slog"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Group is the consumer group every webhooks instance shares; the service's Kafka principal
// may use the groups named "webhooks-…" (deploy/kafkaacl).
const Group = "webhooks-events"

// Ingester stores the producers' events that are webhooks (app.Service).
type Ingester interface {
	Ingest(ctx context.Context, events []app.Received) (app.Ingested, error)
}

// Consumer reads the producers' topics (domain.Topics).
type Consumer struct {
	Cluster broker.Cluster
	Service Ingester
	Log     *slog.Logger
	// Joined is called once the consumer joined its group (readiness, tests).
	Joined func()
}

// Consumer returns c's runner: the messages fetched together are stored in one transaction
// (a backlog drains at the database's pace per batch, not per event), and committed only after
// their webhooks and deliveries were stored; a failure (the database) is retried until it
// succeeds, and only a message that can never be stored goes to the dead-letter topic
// (libs/broker). It restarts after broker failures and tells readiness once it joined its
// group.
func (c *Consumer) Consumer() *broker.Consumer {
	return &broker.Consumer{
		Config:  broker.ConsumerConfig{Cluster: c.Cluster, Group: Group, Topics: domain.Topics, Log: c.Log, Joined: c.Joined},
		Batches: c.handle,
		Log:     c.Log,
	}
}

// handle stores the webhooks among ms, in one call.
func (c *Consumer) handle(ctx context.Context, ms []broker.Message) error {
	events := make([]app.Received, 0, len(ms))
	for _, m := range ms {
		e, ok, err := c.webhook(ctx, m)
		if err != nil {
			return err
		}
		if ok {
			events = append(events, e)
		}
	}
	if len(events) == 0 {
		return nil
	}
	_, err := c.Service.Ingest(ctx, events)
	return err
}

// webhook returns the webhook event m is, if it is one. Another version of a mapped type, a mapped type
// on another topic, a missing ce_id and a webhook event that cannot be mapped (undecodable,
// incomplete) are poison; the producers' other types are skipped, and so are, logged and
// counted, the events of a mapped type without organizerId or object (published before their
// producer sent them, or an event's detail too large for a message): nothing to deliver.
func (c *Consumer) webhook(ctx context.Context, m broker.Message) (app.Received, bool, error) {
	accepted := false
	for _, topic := range domain.Topics {
		ok, err := broker.Accepts(m, topic, domain.SourceTypes(topic)...)
		if err != nil {
			return app.Received{}, false, err
		}
		accepted = accepted || ok
	}
	if !accepted {
		return app.Received{}, false, nil
	}
	id, err := broker.RequireID(m)
	if err != nil {
		return app.Received{}, false, err
	}
	typ := m.Headers[broker.HeaderType]
	e, ok, err := domain.Map(typ, m.Value)
	if errors.Is(err, domain.ErrNoWebhookFields) {
		c.Log.WarnContext(ctx, "event skipped: it carries no organizerId or object", "type", typ, "id", id, "topic", m.Topic)
		skippedEvents.Add(ctx, 1, typeAttr(typ))
		return app.Received{}, false, nil
	}
	if err != nil {
		return app.Received{}, false, broker.Poison(err)
	}
	return app.Received{SourceID: id, Event: e}, ok, nil
}

// DeadLetters returns the dead letters of the consumer (operator command).
func DeadLetters(cluster broker.Cluster) broker.DeadLetters {
	return broker.DeadLetters{Cluster: cluster, Service: "webhooks", Topics: domain.Topics}
}
