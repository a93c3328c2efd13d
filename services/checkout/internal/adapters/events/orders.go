// Package events consumes registration's order events (registration.orders.v1) and hands them
// to the use cases; the inbox in the use case's transaction dedupes redeliveries.
package events

import (
	"context"
	"log/slog"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Group is the consumer group every checkout instance shares.
const Group = "checkout-orders"

// OrderHandler applies one order event; messageID is the message's ce_id.
type OrderHandler interface {
	HandleOrderEvent(ctx context.Context, messageID string, e domain.OrderEvent) error
}

// OrdersConsumer reads registration.orders.v1.
type OrdersConsumer struct {
	Cluster broker.Cluster
	Handler OrderHandler
	Log     *slog.Logger
	// Joined is called once the consumer joined its group (readiness, tests).
	Joined func()
}

// Consumer returns c's runner: a message is committed only after it was applied; a failure
// (database, Stripe) is retried until it succeeds, and only a message that can never be applied
// goes to the dead-letter topic (libs/broker). It restarts after broker failures and tells
// readiness once it joined its group.
func (c *OrdersConsumer) Consumer() *broker.Consumer {
	return &broker.Consumer{
		Config:  broker.ConsumerConfig{Cluster: c.Cluster, Group: Group, Topics: []string{domain.OrdersTopic}, Log: c.Log, Joined: c.Joined},
		Handler: c.handle,
		Log:     c.Log,
	}
}

// orderData is the union of the order events' data.
type orderData struct {
	OrderID    string `json:"orderId"`
	Reason     string `json:"reason"`
	PaymentRef string `json:"paymentRef"`
}

// handle applies the order events checkout acts on; other order events are not its concern.
// Undecodable data, an unknown version of one of its events, and a missing ce_id or orderId are
// poison.
func (c *OrdersConsumer) handle(ctx context.Context, m broker.Message) error {
	ok, err := broker.Accepts(m, domain.OrdersTopic, domain.EventOrderCompleted, domain.EventOrderReleased, domain.EventOrderUnfulfillable)
	if !ok {
		return err
	}
	id, err := broker.RequireID(m)
	if err != nil {
		return err
	}
	var d orderData
	if err := broker.Decode(m, &d); err != nil {
		return err
	}
	if d.OrderID == "" {
		return broker.Poisonf("%s %s: no orderId", m.Headers[broker.HeaderType], id)
	}
	return c.Handler.HandleOrderEvent(ctx, id, domain.OrderEvent{
		Type: m.Headers[broker.HeaderType], OrderID: d.OrderID, Reason: d.Reason, PaymentRef: d.PaymentRef,
	})
}

// DeadLetters returns the dead letters of checkout's consumer (operator command).
func DeadLetters(cluster broker.Cluster) broker.DeadLetters {
	return broker.DeadLetters{Cluster: cluster, Service: "checkout", Topics: []string{domain.OrdersTopic}}
}
