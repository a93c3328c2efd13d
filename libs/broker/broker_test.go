package broker_test

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

// metrics collects what the broker's instruments record in these tests.
var metrics = sdkmetric.NewManualReader()

func init() {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(metrics)))
}

// consume runs Consume in the background and returns the messages it handled.
func consume(t *testing.T, cfg broker.ConsumerConfig, h broker.Handler) <-chan broker.Message {
	t.Helper()
	got := make(chan broker.Message, 100)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	cfg.Log = testkit.Logger(t)
	go func() {
		done <- broker.Consume(ctx, cfg, func(ctx context.Context, m broker.Message) error {
			if err := h(ctx, m); err != nil {
				return err
			}
			got <- m
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Consume: %v", err)
		}
	})
	return got
}

func receive(t *testing.T, ch <-chan broker.Message) broker.Message {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no message within 30s")
		return broker.Message{}
	}
}

func TestPublishConsumeCarriesKeyHeadersAndTrace(t *testing.T) {
	cluster := broker.Cluster{Brokers: testkit.Kafka(t)}
	ctx := t.Context()
	if err := broker.EnsureTopics(ctx, cluster, 3, 1, "widgets.v1"); err != nil {
		t.Fatal(err)
	}
	if err := broker.EnsureTopics(ctx, cluster, 3, 1, "widgets.v1"); err != nil {
		t.Fatalf("EnsureTopics is not idempotent: %v", err)
	}
	var traceCtx trace.SpanContext
	joined := make(chan struct{})
	got := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: "g1", Topics: []string{"widgets.v1"}, Joined: func() { close(joined) }},
		func(ctx context.Context, m broker.Message) error {
			traceCtx = trace.SpanContextFromContext(ctx)
			return nil
		})

	select {
	case <-joined:
	case <-time.After(30 * time.Second):
		t.Fatal("Joined was not called within 30s")
	}
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	pctx := trace.ContextWithSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}))
	w := broker.NewWriter(cluster)
	defer w.Close()
	err := w.Publish(pctx, broker.Message{Topic: "widgets.v1", Key: "w_1", Value: []byte(`{"n":1}`),
		Headers: map[string]string{broker.HeaderType: "podium.widget.made.v1", broker.HeaderID: "m1"}})
	if err != nil {
		t.Fatal(err)
	}
	m := receive(t, got)
	if m.Key != "w_1" || string(m.Value) != `{"n":1}` || m.Headers[broker.HeaderType] != "podium.widget.made.v1" {
		t.Fatalf("received %+v", m)
	}
	if traceCtx.TraceID() != tid {
		t.Fatalf("handler ran in trace %s, want the producer's %s", traceCtx.TraceID(), tid)
	}
}

func TestUncommittedMessageIsRedelivered(t *testing.T) {
	cluster := broker.Cluster{Brokers: testkit.Kafka(t)}
	ctx := t.Context()
	if err := broker.EnsureTopics(ctx, cluster, 1, 1, "orders.v1"); err != nil {
		t.Fatal(err)
	}
	w := broker.NewWriter(cluster)
	defer w.Close()
	if err := w.Publish(ctx, broker.Message{Topic: "orders.v1", Key: "o1", Value: []byte("1")}); err != nil {
		t.Fatal(err)
	}

	// A first consumer stops (ctx cancelled) while handling: the offset is not committed.
	first, stop := context.WithCancel(ctx)
	handling := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- broker.Consume(first, broker.ConsumerConfig{Cluster: cluster, Group: "billing", Topics: []string{"orders.v1"}, Log: testkit.Logger(t)},
			func(ctx context.Context, _ broker.Message) error {
				close(handling)
				<-ctx.Done()
				return ctx.Err()
			})
	}()
	<-handling
	stop()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}

	got := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: "billing", Topics: []string{"orders.v1"}},
		func(context.Context, broker.Message) error { return nil })
	if m := receive(t, got); m.Key != "o1" {
		t.Fatalf("redelivered %q, want o1", m.Key)
	}
}
