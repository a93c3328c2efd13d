package delivery

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

var meter = otel.Meter("github.com/podiumhq/podium/services/webhooks/internal/delivery")

var (
	attemptsMade, _ = meter.Int64Counter("webhooks.delivery.attempts",
		metric.WithDescription("Attempts of deliveries, by what they got (kind: success, status, redirect, gone, timeout, connection, refused_address, invalid_url, signing)."))
	attemptDuration, _ = meter.Float64Histogram("webhooks.delivery.attempt.duration", metric.WithUnit("s"),
		metric.WithDescription("How long an attempt took, from sending to the end of the answer read, by kind."),
		metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15))
	deliveriesSucceeded, _ = meter.Int64Counter("webhooks.deliveries.succeeded",
		metric.WithDescription("Deliveries that succeeded (a 2xx answer)."))
	deliveriesFailed, _ = meter.Int64Counter("webhooks.deliveries.failed",
		metric.WithDescription("Deliveries that failed for good, by reason: exhausted (the retry window ended), gone (410, endpoint disabled), failing (endpoint failing for 5 days, disabled)."))
	deliveriesRetried, _ = meter.Int64Counter("webhooks.deliveries.retrying",
		metric.WithDescription("Failed attempts whose delivery is attempted again later."))
	dueDeliveries, _ = meter.Int64ObservableGauge("webhooks.deliveries.due",
		metric.WithDescription("Deliveries due now and not yet attempted, as the dispatcher's latest scan read them."))
	oldestDueAge, _ = meter.Float64ObservableGauge("webhooks.deliveries.oldest_due_age", metric.WithUnit("s"),
		metric.WithDescription("How long the oldest due delivery has waited past its time, as the dispatcher's latest scan read it; 0 with none."))
)

func kindAttr(k Kind) metric.MeasurementOption {
	return metric.WithAttributeSet(attribute.NewSet(attribute.String("kind", string(k))))
}

func reasonAttr(reason string) metric.MeasurementOption {
	return metric.WithAttributeSet(attribute.NewSet(attribute.String("reason", reason)))
}

// count records an attempt's outcome.
func count(ctx context.Context, o Outcome, took time.Duration) {
	attemptsMade.Add(ctx, 1, kindAttr(o.Kind))
	attemptDuration.Record(ctx, took.Seconds(), kindAttr(o.Kind))
	switch {
	case o.Status == Succeeded:
		deliveriesSucceeded.Add(ctx, 1)
	case o.Status == Pending:
		deliveriesRetried.Add(ctx, 1)
	case o.Disable != "":
		deliveriesFailed.Add(ctx, 1, reasonAttr(string(o.Disable)))
	default:
		deliveriesFailed.Add(ctx, 1, reasonAttr("exhausted"))
	}
}

// backlogGauges reports the dispatcher's latest read of the backlog while it runs.
type backlogGauges struct {
	mu           sync.Mutex
	read         bool
	due          int64
	oldestAge    float64
	registration metric.Registration
}

// observeBacklog registers the gauges' callback until close; it observes nothing before the
// first set.
func observeBacklog() (*backlogGauges, error) {
	g := &backlogGauges{}
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.read {
			o.ObserveInt64(dueDeliveries, g.due)
			o.ObserveFloat64(oldestDueAge, g.oldestAge)
		}
		return nil
	}, dueDeliveries, oldestDueAge)
	if err != nil {
		return nil, err
	}
	g.registration = reg
	return g, nil
}

// set records a read of the backlog made at now.
func (g *backlogGauges) set(b Backlog, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.read, g.due, g.oldestAge = true, b.Due, 0
	if b.OldestDue != nil {
		g.oldestAge = max(now.Sub(*b.OldestDue), 0).Seconds()
	}
}

func (g *backlogGauges) close() { _ = g.registration.Unregister() }
