package app

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/metric"
)

// RefundBacklog is what waits for the refunds: the checkouts whose refund failed for good
// (REFUND_FAILED) and when the oldest pending refund, a late payment's or an organizer's,
// became pending (nil with none).
type RefundBacklog struct {
	Failed             int64
	OldestPendingSince *time.Time
}

// Gauges of the refund backlog, observed from the refund worker's latest read.
var (
	refundsAwaitingOperator, _ = meter.Int64ObservableGauge("checkout.refunds.awaiting_operator",
		metric.WithDescription("Checkouts whose refund failed for good (REFUND_FAILED) and wait for an operator (checkout refunds list), as the refund worker's latest scan read them."))
	refundsOldestPending, _ = meter.Float64ObservableGauge("checkout.refunds.oldest_pending_age", metric.WithUnit("s"),
		metric.WithDescription("How long the oldest pending refund (a late payment's REFUND_PENDING, or an organizer's pending refund) has waited to be made, as the refund worker's latest scan read it; 0 with none."))
)

// backlogGauges reports a refund worker's latest read of the backlog while it runs.
type backlogGauges struct {
	mu           sync.Mutex
	failed       int64
	oldestAge    float64
	registration metric.Registration
}

// observeRefundBacklog registers the gauges' callback until close; it observes nothing before
// the first set.
func observeRefundBacklog() (*backlogGauges, error) {
	g := &backlogGauges{failed: -1}
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.failed >= 0 {
			o.ObserveInt64(refundsAwaitingOperator, g.failed)
			o.ObserveFloat64(refundsOldestPending, g.oldestAge)
		}
		return nil
	}, refundsAwaitingOperator, refundsOldestPending)
	if err != nil {
		return nil, err
	}
	g.registration = reg
	return g, nil
}

// set records a read of the backlog made at now.
func (g *backlogGauges) set(b RefundBacklog, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.failed, g.oldestAge = b.Failed, 0
	if b.OldestPendingSince != nil {
		g.oldestAge = max(now.Sub(*b.OldestPendingSince), 0).Seconds()
	}
}

func (g *backlogGauges) close() { _ = g.registration.Unregister() }
