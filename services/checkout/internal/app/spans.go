package app

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// orderIDKey is the span attribute naming the order a request worked on: it ties a purchase's
// session trace to the trace of its Stripe webhook (docs/adr/0007).
const orderIDKey = attribute.Key("podium.order.id")

// tagOrder records the order ctx's request worked on in the request's span.
func tagOrder(ctx context.Context, orderID string) {
	if orderID != "" {
		trace.SpanFromContext(ctx).SetAttributes(orderIDKey.String(orderID))
	}
}
