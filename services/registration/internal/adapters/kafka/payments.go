// Package kafka consumes checkout's payment events (checkout.payments.v1) and applies them:
// a succeeded payment confirms its order, a failed one releases it, a refunded one marks it
// REFUNDED. Each message is applied
// once (inbox by ce_id); the transitions themselves are idempotent, so duplicates and any
// arrival order are harmless.
package kafka

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// payment is the union of the payment events' data.
type payment struct {
	OrderID    string `json:"orderId"`
	SessionID  string `json:"sessionId"`
	PaymentRef string `json:"paymentRef"`
	Amount     *int64 `json:"amount"`
	Currency   string `json:"currency"`
	Reason     string `json:"reason"`
}

// Handler returns the broker handler of payment events. Messages of other types are ignored;
// a message that cannot be decoded is an error (retried, then dead-lettered).
func Handler(svc *app.Service, log *slog.Logger) broker.Handler {
	return func(ctx context.Context, m broker.Message) error {
		typ := m.Headers[broker.HeaderType]
		if typ != domain.EventPaymentSucceeded && typ != domain.EventPaymentFailed && typ != domain.EventPaymentRefunded {
			log.DebugContext(ctx, "ignoring message of another type", "type", typ)
			return nil
		}
		var p payment
		if err := json.Unmarshal(m.Value, &p); err != nil || p.OrderID == "" {
			return fmt.Errorf("payment event %s: undecodable data", m.Headers[broker.HeaderID])
		}
		return svc.ApplyPayment(ctx, app.Payment{
			MessageID: m.Headers[broker.HeaderID], Type: typ, OrderID: p.OrderID,
			PaymentRef: p.PaymentRef, Amount: p.Amount, Reason: p.Reason,
		})
	}
}

// Consume runs the payments consumer (group registration-payments) until ctx is done,
// starting it again a second after it fails.
func Consume(ctx context.Context, brokers []string, svc *app.Service, log *slog.Logger, joined func()) error {
	for ctx.Err() == nil {
		err := broker.Consume(ctx, broker.ConsumerConfig{
			Brokers: brokers, Group: domain.PaymentsConsumerGroup, Topics: []string{domain.PaymentsTopic},
			Log: log, Joined: joined,
		}, Handler(svc, log))
		if err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "payments consumer failed; restarting", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
	return nil
}
