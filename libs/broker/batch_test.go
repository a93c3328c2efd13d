package broker_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

// batches runs ConsumeBatches in the background and records each call's keys, and each
// message handled alone after a failed batch as a call of its own.
type batches struct {
	mu    sync.Mutex
	calls [][]string
	keys  chan string // the keys of the calls that succeeded, in order
}

func consumeBatches(t *testing.T, cfg broker.ConsumerConfig, h func(ms []broker.Message) error) *batches {
	t.Helper()
	b := &batches{keys: make(chan string, 1000)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	cfg.Log = testkit.Logger(t)
	go func() {
		done <- broker.ConsumeBatches(ctx, cfg, func(_ context.Context, ms []broker.Message) error {
			keys := make([]string, len(ms))
			for i, m := range ms {
				keys[i] = m.Key
			}
			b.mu.Lock()
			b.calls = append(b.calls, keys)
			b.mu.Unlock()
			if err := h(ms); err != nil {
				return err
			}
			for _, k := range keys {
				b.keys <- k
			}
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ConsumeBatches: %v", err)
		}
	})
	return b
}

// handled waits for n successfully handled keys and returns them in order.
func (b *batches) handled(t *testing.T, n int) []string {
	t.Helper()
	got := make([]string, 0, n)
	for len(got) < n {
		select {
		case k := <-b.keys:
			got = append(got, k)
		case <-t.Context().Done():
			t.Fatalf("handled %v, want %d", got, n)
		}
	}
	return got
}

func (b *batches) sizes() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var sizes []int
	for _, c := range b.calls {
		sizes = append(sizes, len(c))
	}
	return sizes
}

func keysOf(prefix string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s-%02d", prefix, i)
	}
	return keys
}

func TestBatchesHandTheHandlerTheMessagesFetchedTogetherInOrder(t *testing.T) {
	t.Parallel()
	const topic = "batch.orders.v1"
	cluster := setup(t, topic)
	keys := keysOf("m", 50)
	publish(t, cluster, topic, keys...) // all there before the consumer joins: fetched together
	b := consumeBatches(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-batch", Topics: []string{topic}, MaxBatch: 20, Backoff: fast},
		func([]broker.Message) error { return nil })

	if got := b.handled(t, len(keys)); !slices.Equal(got, keys) {
		t.Fatalf("handled %v, want %v", got, keys)
	}
	sizes := b.sizes()
	if slices.Max(sizes) > 20 || len(sizes) == len(keys) {
		t.Fatalf("batch sizes %v: want at most 20 each and some of more than one", sizes)
	}
}

func TestAFailedBatchIsHandledOneMessageAtATime(t *testing.T) {
	t.Parallel()
	const topic = "batch.payments.v1"
	cluster := setup(t, topic)
	keys := keysOf("m", 30)
	keys[7], keys[20] = "poison", "flaky"
	publish(t, cluster, topic, keys...)
	var flaky int
	b := consumeBatches(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-batchfail", Topics: []string{topic}, MaxBatch: 100, Backoff: fast},
		func(ms []broker.Message) error {
			for _, m := range ms {
				switch {
				case m.Key == "poison":
					return broker.Poisonf("undecodable")
				case m.Key == "flaky" && len(ms) == 1 && flaky < 2:
					flaky++
					return errors.New("database unreachable")
				}
			}
			return nil
		})

	want := slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k == "poison" })
	if got := b.handled(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("handled %v, want every message but the poison one once, in order: %v", got, want)
	}
	dls := deadLetters(t, cluster, "shop", topic)
	if len(dls) != 1 || dls[0].Key != "poison" {
		t.Fatalf("dead letters %+v, want the poison message alone", dls)
	}
	if flaky != 2 {
		t.Fatalf("flaky failed %d times alone, want 2 (retried until it succeeded)", flaky)
	}
}

func TestABatchKeepsEachMessageInItsOwnTrace(t *testing.T) {
	t.Parallel()
	const topic = "batch.traced.v1"
	spans := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	cluster := setup(t, topic)
	msgs := make([]broker.Message, 3)
	creates := make([]trace.SpanContext, len(msgs))
	for i := range msgs {
		key := fmt.Sprintf("traced-%d", i)
		headers := map[string]string{broker.HeaderID: "id-" + key, broker.HeaderType: "podium.test.v1"}
		_, span := broker.StartCreate(t.Context(), topic, key, headers)
		span.End()
		creates[i] = span.SpanContext()
		msgs[i] = broker.Message{Topic: topic, Key: key, Value: []byte(`{}`), Headers: headers}
	}
	w := broker.NewWriter(cluster)
	defer w.Close()
	if err := w.Publish(t.Context(), msgs...); err != nil {
		t.Fatal(err)
	}
	b := consumeBatches(t, broker.ConsumerConfig{Cluster: cluster, Group: "shop-traced", Topics: []string{topic}, Backoff: fast},
		func([]broker.Message) error { return nil })
	b.handled(t, len(msgs))
	if slices.Max(b.sizes()) == 1 {
		t.Fatal("the messages came one at a time: no batch to trace")
	}

	var batch sdktrace.ReadOnlySpan
	processed := map[trace.SpanID]sdktrace.ReadOnlySpan{} // by their parent
	testkit.Eventually(t, 10*time.Second, func() string {
		batch, processed = nil, map[trace.SpanID]sdktrace.ReadOnlySpan{}
		for _, s := range spans.Ended() {
			if s.Name() != "process "+topic || s.SpanKind() != trace.SpanKindConsumer {
				continue
			}
			if s.Parent().IsValid() {
				processed[s.Parent().SpanID()] = s
			} else {
				batch = s
			}
		}
		if batch == nil || len(processed) < len(creates) {
			return fmt.Sprintf("%d process spans and a batch span: %v", len(processed), batch != nil)
		}
		return ""
	})
	linked := map[trace.SpanID]bool{}
	for _, l := range batch.Links() {
		linked[l.SpanContext.SpanID()] = true
	}
	for i, c := range creates {
		p, ok := processed[c.SpanID()]
		if !ok || p.SpanContext().TraceID() != c.TraceID() {
			t.Fatalf("message %d has no process span in its own trace", i)
		}
		if len(p.Links()) != 1 || p.Links()[0].SpanContext.SpanID() != batch.SpanContext().SpanID() {
			t.Fatalf("message %d's process span does not link to the batch: %v", i, p.Links())
		}
		if !linked[c.SpanID()] {
			t.Fatalf("the batch span does not link to message %d's creation", i)
		}
	}
}
