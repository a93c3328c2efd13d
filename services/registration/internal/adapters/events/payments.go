// Package events consumes checkout's payment events (checkout.payments.v1) and applies them:
// a succeeded payment confirms its order (the one way an order is confirmed; a free order's
// payment has amount 0), a failed one releases it, a refunded one marks it REFUNDED, an organizer's refund made (refund.succeeded) records it
// on the order and cancels the tickets it names. Each message is applied once (inbox by ce_id); the transitions themselves are
// idempotent, so duplicates, replays and any arrival order are harmless.
package events

import (
	"context"
	"log/slog"

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
	// Livemode is the payment's mode; an event without it is live.
	Livemode *bool `json:"livemode"`
	// AmountRefunded, OrderRefunded, TicketIDs and CancelTickets are refund.succeeded's.
	AmountRefunded int64    `json:"amountRefunded"`
	OrderRefunded  bool     `json:"orderRefunded"`
	TicketIDs      []string `json:"ticketIds"`
	CancelTickets  bool     `json:"cancelTickets"`
}

// Handler returns the broker handler of payment events. Messages of other types are ignored;
// one that can never be applied (DecodePayment) is poison, a failure to apply the payment is
// retried until it succeeds.
func Handler(svc *app.Service, log *slog.Logger) broker.Handler {
	return func(ctx context.Context, m broker.Message) error {
		p, ok, err := DecodePayment(m)
		if !ok {
			if err == nil {
				log.DebugContext(ctx, "ignoring message of another type", "type", m.Headers[broker.HeaderType])
			}
			return err
		}
		return svc.ApplyPayment(ctx, p)
	}
}

// DecodePayment reads a payment event; ok is false for a message of another type. Undecodable
// data, an unknown version of a payment event, and a missing ce_id or orderId are poison
// (dead-lettered at once).
func DecodePayment(m broker.Message) (app.Payment, bool, error) {
	typ := m.Headers[broker.HeaderType]
	if ok, err := broker.Accepts(m, domain.PaymentsTopic, domain.EventPaymentSucceeded, domain.EventPaymentFailed, domain.EventPaymentRefunded,
		domain.EventRefundSucceeded); !ok {
		return app.Payment{}, false, err
	}
	id, err := broker.RequireID(m)
	if err != nil {
		return app.Payment{}, false, err
	}
	var d payment
	if err := broker.Decode(m, &d); err != nil {
		return app.Payment{}, false, err
	}
	if d.OrderID == "" {
		return app.Payment{}, false, broker.Poisonf("payment event %s: no orderId", id)
	}
	test := d.Livemode != nil && !*d.Livemode
	refund := domain.RefundMade{OrderID: d.OrderID, AmountRefunded: d.AmountRefunded, OrderRefunded: d.OrderRefunded, TicketIDs: d.TicketIDs, CancelTickets: d.CancelTickets}
	return app.Payment{MessageID: id, Type: typ, OrderID: d.OrderID, PaymentRef: d.PaymentRef, Amount: d.Amount, Reason: d.Reason, Test: test, Refund: refund}, true, nil
}

// DeadLetters returns the dead letters of registration's consumers (operator command).
func DeadLetters(cluster broker.Cluster) broker.DeadLetters {
	return broker.DeadLetters{Cluster: cluster, Service: "registration", Topics: []string{domain.PaymentsTopic}}
}

// Consumer returns the payments consumer: it restarts after broker failures and tells readiness
// once it joined its group; joined, if set, is called then too.
func Consumer(cluster broker.Cluster, svc *app.Service, log *slog.Logger, joined func()) *broker.Consumer {
	return &broker.Consumer{
		Config: broker.ConsumerConfig{
			Cluster: cluster, Group: domain.PaymentsConsumerGroup, Topics: []string{domain.PaymentsTopic},
			Log: log, Joined: joined,
		},
		Handler: Handler(svc, log),
		Log:     log,
	}
}
