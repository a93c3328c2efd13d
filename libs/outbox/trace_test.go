package outbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestRelayedMessageContinuesTheTraceOfItsCreation enqueues a message inside a request's span,
// relays it to Kafka and consumes it: the message's create span is a child of the request,
// the consumer's process span a child of the create span, and the relay's send span, in a
// trace of its own, links to the create span.
func TestRelayedMessageContinuesTheTraceOfItsCreation(t *testing.T) {
	tp, spans := testkit.Tracing(t)
	pool := testkit.Pool(t, outbox.Migrations())
	brokers := testkit.Kafka(t)
	w := broker.NewWriter(broker.Cluster{Brokers: brokers})
	defer w.Close()
	startRelay(t, pool, w)

	ctx, request := tp.Tracer("test").Start(t.Context(), "request", trace.WithSpanKind(trace.SpanKindServer))
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := outbox.Enqueue(ctx, tx, outbox.Event{Topic: "traced.v1", Key: "k1", Type: "podium.thing.made.v1", Source: "test", Data: map[string]string{}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	request.End()

	cctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	handled := make(chan trace.SpanContext, 1)
	cfg := broker.ConsumerConfig{Cluster: broker.Cluster{Brokers: brokers}, Group: "traced", Topics: []string{"traced.v1"}, Log: testkit.Logger(t)}
	go func() {
		_ = broker.Consume(cctx, cfg, func(ctx context.Context, _ broker.Message) error {
			handled <- trace.SpanContextFromContext(ctx)
			return nil
		})
	}()
	var inHandler trace.SpanContext
	select {
	case inHandler = <-handled:
	case <-time.After(30 * time.Second):
		t.Fatal("message not consumed")
	}
	cancel()

	byName := map[string]sdktrace.ReadOnlySpan{}
	testkit.Eventually(t, 5*time.Second, func() string {
		for _, s := range spans.Ended() {
			byName[s.Name()] = s
		}
		for _, name := range []string{"create traced.v1", "send traced.v1", "process traced.v1"} {
			if byName[name] == nil {
				return "no span " + name
			}
		}
		return ""
	})
	create, send, process := byName["create traced.v1"], byName["send traced.v1"], byName["process traced.v1"]
	if create.SpanKind() != trace.SpanKindProducer || create.Parent().SpanID() != request.SpanContext().SpanID() {
		t.Errorf("create span: %s, parent %s; want a producer span under the request %s", create.SpanKind(), create.Parent().SpanID(), request.SpanContext().SpanID())
	}
	if process.SpanKind() != trace.SpanKindConsumer || process.Parent().SpanID() != create.SpanContext().SpanID() ||
		process.SpanContext().TraceID() != request.SpanContext().TraceID() || inHandler.SpanID() != process.SpanContext().SpanID() {
		t.Errorf("process span: %s, parent %s, trace %s; want the handler's consumer span under the create span %s of trace %s",
			process.SpanKind(), process.Parent().SpanID(), process.SpanContext().TraceID(), create.SpanContext().SpanID(), request.SpanContext().TraceID())
	}
	links := send.Links()
	if send.SpanKind() != trace.SpanKindClient || send.SpanContext().TraceID() == request.SpanContext().TraceID() ||
		len(links) != 1 || links[0].SpanContext.SpanID() != create.SpanContext().SpanID() {
		t.Errorf("send span: %s in trace %s, links %+v; want a client span of its own trace linked to the create span", send.SpanKind(), send.SpanContext().TraceID(), links)
	}
}
