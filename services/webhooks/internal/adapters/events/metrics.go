package events

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

var skippedEvents, _ = otel.Meter("github.com/podiumhq/podium/services/webhooks/internal/adapters/events").Int64Counter(
	"webhooks.events.skipped",
	metric.WithDescription("Producer events of a webhook type skipped because they predate the webhook fields (organizerId, object), by type."))

func typeAttr(typ string) metric.MeasurementOption {
	return metric.WithAttributeSet(attribute.NewSet(attribute.String("type", typ)))
}
