package app

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

var meter = otel.Meter("github.com/podiumhq/podium/services/checkout/internal/app")

var (
	unknownWebhooks, _ = meter.Int64Counter("checkout.webhooks.unknown",
		metric.WithDescription("Stripe webhooks about a checkout that is not known, by what was answered: retried (503, Stripe delivers it again) or acknowledged (200)."))
	reconciled, _ = meter.Int64Counter("checkout.reconcile.settled",
		metric.WithDescription("Outcomes of Stripe Checkout Sessions that reconciliation applied because no webhook had, by outcome (paid, expired)."))
)

// Attribute sets of the counters, made once.
var (
	outcomeRetried      = metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", "retried")))
	outcomeAcknowledged = metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", "acknowledged")))
	outcomePaid         = metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", "paid")))
	outcomeExpired      = metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", "expired")))
)
