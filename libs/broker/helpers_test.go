package broker_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

// fast retries at once: these tests count attempts, not time.
func fast(int) time.Duration { return time.Millisecond }

// setup starts a broker with topic (one partition) and returns the cluster.
func setup(t *testing.T, topic string) broker.Cluster {
	t.Helper()
	cluster := broker.Cluster{Brokers: testkit.Kafka(t)}
	if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, topic); err != nil {
		t.Fatal(err)
	}
	return cluster
}

func publish(t *testing.T, cluster broker.Cluster, topic string, keys ...string) {
	t.Helper()
	w := broker.NewWriter(cluster)
	defer w.Close()
	msgs := make([]broker.Message, len(keys))
	for i, k := range keys {
		msgs[i] = broker.Message{Topic: topic, Key: k, Value: []byte(`{}`), Headers: map[string]string{broker.HeaderID: "id-" + k, broker.HeaderType: "podium.test.v1"}}
	}
	if err := w.Publish(t.Context(), msgs...); err != nil {
		t.Fatal(err)
	}
}

// counter sums the points of the broker's instrument name whose attributes include attrs.
func counter(t *testing.T, name string, attrs ...attribute.KeyValue) int64 {
	t.Helper()
	n, err := sum(name, attrs...)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func sum(name string, attrs ...attribute.KeyValue) (int64, error) {
	var rm metricdata.ResourceMetrics
	if err := metrics.Collect(context.Background(), &rm); err != nil {
		return 0, err
	}
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if m.Name != name || !ok {
				continue
			}
			for _, dp := range sum.DataPoints {
				if matches(dp.Attributes, attrs) {
					n += dp.Value
				}
			}
		}
	}
	return n, nil
}

func matches(set attribute.Set, attrs []attribute.KeyValue) bool {
	for _, a := range attrs {
		if v, ok := set.Value(a.Key); !ok || v != a.Value {
			return false
		}
	}
	return true
}

// deadLetters lists the dead letters of service's consumers of topic.
func deadLetters(t *testing.T, cluster broker.Cluster, service, topic string) []broker.DeadLetter {
	t.Helper()
	var out []broker.DeadLetter
	err := broker.DeadLetters{Cluster: cluster, Service: service, Topics: []string{topic}}.List(t.Context(), broker.Selection{},
		func(dl broker.DeadLetter) error { out = append(out, dl); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// attempts records the keys a handler was called with, in order.
type attempts struct {
	mu   sync.Mutex
	keys []string
}

func (a *attempts) add(key string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.keys = append(a.keys, key)
	n := 0
	for _, k := range a.keys {
		if k == key {
			n++
		}
	}
	return n
}

func (a *attempts) all() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.keys)
}

// scenario starts a consumer of topic in group that retries at once, records each attempt and
// lets h (given the attempt's number for its key) decide its outcome; then it publishes keys.
func scenario(t *testing.T, topic, group string, h func(m broker.Message, attempt int) error, keys ...string) (broker.Cluster, <-chan broker.Message, *attempts) {
	t.Helper()
	cluster := setup(t, topic)
	seen := &attempts{}
	got := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: group, Topics: []string{topic}, Backoff: fast},
		func(_ context.Context, m broker.Message) error { return h(m, seen.add(m.Key)) })
	publish(t, cluster, topic, keys...)
	return cluster, got, seen
}

// handled fails the test unless the consumer handles keys, in order.
func handled(t *testing.T, got <-chan broker.Message, keys ...string) {
	t.Helper()
	for _, want := range keys {
		if m := receive(t, got); m.Key != want {
			t.Fatalf("handled %q, want %q", m.Key, want)
		}
	}
}
