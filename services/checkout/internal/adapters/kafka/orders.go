// Package kafka consumes registration's order events (registration.orders.v1) and hands them
// to the use cases; the inbox in the use case's transaction dedupes redeliveries.
package kafka

import (
	"context"
	"encoding/json"
	"fmt"
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
	Brokers []string
	Handler OrderHandler
	Log     *slog.Logger
	// MaxAttempts is how often a failing message is tried before it goes to the dead-letter
	// topic (zero: the broker's default of 10).
	MaxAttempts int
	// Joined is called once the consumer joined its group (readiness, tests).
	Joined func()
}

// Run consumes until ctx is done; a message is committed only after it was applied, and one
// that keeps failing goes to the dead-letter topic (libs/broker).
func (c *OrdersConsumer) Run(ctx context.Context) error {
	return broker.Consume(ctx, broker.ConsumerConfig{
		Brokers: c.Brokers, Group: Group, Topics: []string{domain.OrdersTopic}, Log: c.Log,
		MaxAttempts: c.MaxAttempts, Joined: c.Joined,
	}, c.handle)
}

// orderData is the union of the order events' data.
type orderData struct {
	OrderID    string `json:"orderId"`
	Reason     string `json:"reason"`
	PaymentRef string `json:"paymentRef"`
}

func (c *OrdersConsumer) handle(ctx context.Context, m broker.Message) error {
	typ := m.Headers[broker.HeaderType]
	switch typ {
	case domain.EventOrderCompleted, domain.EventOrderReleased, domain.EventOrderUnfulfillable:
	default:
		return nil // other order events are not checkout's concern
	}
	var d orderData
	if err := json.Unmarshal(m.Value, &d); err != nil {
		return fmt.Errorf("%s: unreadable data: %w", typ, err)
	}
	return c.Handler.HandleOrderEvent(ctx, m.Headers[broker.HeaderID], domain.OrderEvent{
		Type: typ, OrderID: d.OrderID, Reason: d.Reason, PaymentRef: d.PaymentRef,
	})
}
