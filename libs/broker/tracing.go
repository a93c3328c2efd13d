package broker

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// A message's spans follow the OpenTelemetry messaging conventions: "create <topic>" (producer)
// when a message is written to an outbox, "send <topic>" when messages reach the brokers
// (producer when the message carries no creation context of its own, else a client span
// linked to the messages' creation spans) and "process <topic>" (consumer), a child of the
// message's creation span: one trace runs from the request that changed something to every
// consumer that acted on it. See docs/adr/0007.

// tracer is looked up at each span, so a provider installed later (a test's) is the one used.
func tracer() trace.Tracer { return otel.Tracer("github.com/podiumhq/podium/libs/broker") }

// HeaderTraceParent is the W3C trace-context header a message carries.
const HeaderTraceParent = "traceparent"

// StartCreate starts the producer span of a message created now and sent later (an outbox's),
// and writes its trace context into headers, so that the message's consumers continue the
// trace as its children. The caller ends the span once the message is stored.
func StartCreate(ctx context.Context, topic, key string, headers map[string]string) (context.Context, trace.Span) {
	ctx, span := tracer().Start(ctx, "create "+topic, trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(messageAttributes("create", topic, key, headers)...))
	otel.GetTextMapPropagator().Inject(ctx, headerCarrier(headers))
	return ctx, span
}

// startSend starts the span of one publish of msgs, linked to the creation spans of the
// messages that carry one.
func startSend(ctx context.Context, msgs []Message) (context.Context, trace.Span) {
	kind := trace.SpanKindClient
	links := linksOf(msgs)
	if len(links) < len(msgs) {
		kind = trace.SpanKindProducer
	}
	name, attrs := "send", []attribute.KeyValue{
		attribute.String("messaging.system", "kafka"),
		attribute.String("messaging.operation.type", "send"),
		attribute.Int("messaging.batch.message_count", len(msgs)),
	}
	if topic := commonTopic(msgs); topic != "" {
		name += " " + topic
		attrs = append(attrs, attribute.String("messaging.destination.name", topic))
	}
	return tracer().Start(ctx, name, trace.WithSpanKind(kind), trace.WithLinks(links...), trace.WithAttributes(attrs...))
}

// startProcess starts the consumer span of m, a child of the message's creation span.
func startProcess(ctx context.Context, m Message, group string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	ctx = otel.GetTextMapPropagator().Extract(ctx, headerCarrier(m.Headers))
	attrs := append(messageAttributes("process", m.Topic, m.Key, m.Headers),
		attribute.String("messaging.consumer.group.name", group),
		attribute.Int("messaging.destination.partition.id", m.Partition),
		attribute.Int64("messaging.kafka.offset", m.Offset),
	)
	opts = append(opts, trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(attrs...))
	return tracer().Start(ctx, "process "+m.Topic, opts...)
}

// startBatchProcess starts the consumer span of msgs handled together, the root of a trace of
// its own linked to the messages' creation spans (a span has one parent; the messaging
// conventions link a batch's).
func startBatchProcess(ctx context.Context, msgs []Message, group string) (context.Context, trace.Span) {
	name, attrs := "process", []attribute.KeyValue{
		attribute.String("messaging.system", "kafka"),
		attribute.String("messaging.operation.type", "process"),
		attribute.String("messaging.consumer.group.name", group),
		attribute.Int("messaging.batch.message_count", len(msgs)),
	}
	if topic := commonTopic(msgs); topic != "" {
		name += " " + topic
		attrs = append(attrs, attribute.String("messaging.destination.name", topic))
	}
	return tracer().Start(ctx, name, trace.WithSpanKind(trace.SpanKindConsumer), trace.WithLinks(linksOf(msgs)...), trace.WithAttributes(attrs...))
}

// linksOf links to the creation spans of the messages that carry one.
func linksOf(msgs []Message) []trace.Link {
	var links []trace.Link
	for _, m := range msgs {
		if sc := messageContext(m); sc.IsValid() {
			links = append(links, trace.Link{SpanContext: sc})
		}
	}
	return links
}

// failed marks span as failed with err.
func failed(span trace.Span, err error) {
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}

func messageAttributes(operation, topic, key string, headers map[string]string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String("messaging.system", "kafka"),
		attribute.String("messaging.operation.type", operation),
		attribute.String("messaging.destination.name", topic),
		attribute.String("messaging.message.id", headers[HeaderID]),
		attribute.String("messaging.kafka.message.key", key),
	}
}

// messageContext is the trace context m carries, if any.
func messageContext(m Message) trace.SpanContext {
	if m.Headers[HeaderTraceParent] == "" {
		return trace.SpanContext{}
	}
	return trace.SpanContextFromContext(otel.GetTextMapPropagator().Extract(context.Background(), headerCarrier(m.Headers)))
}

func commonTopic(msgs []Message) string {
	if len(msgs) == 0 {
		return ""
	}
	for _, m := range msgs[1:] {
		if m.Topic != msgs[0].Topic {
			return ""
		}
	}
	return msgs[0].Topic
}
