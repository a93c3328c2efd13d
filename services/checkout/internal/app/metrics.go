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
		metric.WithDescription("Outcomes of Stripe Checkout Sessions that reconciliation applied because no webhook had, by outcome (paid, expired, processing, failed)."))
	refundsFailed, _ = meter.Int64Counter("checkout.refunds.failed",
		metric.WithDescription("Refunds that failed for good, refused by the payment provider or with no payment to refund (the checkout is REFUND_FAILED until an operator retries or resolves it), by the provider's error code or no_payment_to_refund."))
)

// refundFailedCode is the attribute set of a refund refused with the provider's code ("none"
// when it gave none).
func refundFailedCode(code string) metric.AddOption {
	if code == "" {
		code = "none"
	}
	return metric.WithAttributeSet(attribute.NewSet(attribute.String("code", code)))
}

// Attribute sets of the counters, made once.
var (
	outcomeRetried      = metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", "retried")))
	outcomeAcknowledged = metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", "acknowledged")))
)

// reconcileOutcome is the attribute set of a settled outcome (paid, expired, processing,
// failed).
func reconcileOutcome(outcome string) metric.AddOption {
	return metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", outcome)))
}
