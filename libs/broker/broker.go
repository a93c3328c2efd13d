// Package broker publishes and consumes Kafka messages with kafka-go: writers wait for every
// in-sync replica, consumers commit only after a message is processed, and W3C trace context
// travels in message headers. Message metadata follows the CloudEvents Kafka binding (ce_*
// headers), so any tool that speaks CloudEvents can read it.
package broker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/segmentio/kafka-go"
	"go.opentelemetry.io/otel"
)

// CloudEvents header names carried on every message.
const (
	HeaderID          = "ce_id"
	HeaderType        = "ce_type"
	HeaderSource      = "ce_source"
	HeaderTime        = "ce_time"
	HeaderSpecVersion = "ce_specversion"
	HeaderContentType = "content-type"
)

// Message is one record to publish or one record received.
type Message struct {
	Topic   string
	Key     string
	Value   []byte
	Headers map[string]string
	// Partition and Offset are set on received messages.
	Partition int
	Offset    int64
}

// Writer publishes messages, keyed so that one aggregate's messages stay in order.
type Writer struct{ w *kafka.Writer }

// NewWriter returns a writer to c that waits for all in-sync replicas and batches for at most
// 5 ms.
func NewWriter(c Cluster) *Writer {
	w := &kafka.Writer{
		Addr:                   kafka.TCP(c.Brokers...),
		Balancer:               &kafka.Hash{},
		RequiredAcks:           kafka.RequireAll,
		BatchTimeout:           5 * time.Millisecond,
		WriteTimeout:           10 * time.Second,
		MaxAttempts:            5,
		AllowAutoTopicCreation: true,
	}
	if c.transport != nil {
		w.Transport = c.transport
	}
	return &Writer{w: w}
}

// Publish writes msgs and returns once the brokers acknowledged all of them, inside a send
// span. Messages that carry no trace context of their own get the send span's.
func (w *Writer) Publish(ctx context.Context, msgs ...Message) error {
	ctx, span := startSend(ctx, msgs)
	defer span.End()
	out := make([]kafka.Message, len(msgs))
	for i, m := range msgs {
		h := m.Headers
		if _, ok := h[HeaderTraceParent]; !ok {
			h = copyHeaders(h)
			otel.GetTextMapPropagator().Inject(ctx, headerCarrier(h))
		}
		out[i] = kafka.Message{Topic: m.Topic, Key: []byte(m.Key), Value: m.Value, Headers: toKafka(h)}
	}
	if err := w.w.WriteMessages(ctx, out...); err != nil {
		failed(span, err)
		return fmt.Errorf("broker: publish: %w", err)
	}
	return nil
}

// Close flushes pending writes and closes connections.
func (w *Writer) Close() error { return w.w.Close() }

// EnsureTopics creates the topics of c that do not exist yet, with partitions and replicas (-1
// for the broker's defaults). It looks before it creates: where the platform declares the topics
// and no principal may create one (deploy/kafkaacl), Kafka refuses a CreateTopics without the
// right with TOPIC_AUTHORIZATION_FAILED even for a topic that exists, so only a topic that is
// missing is asked for, and then the refusal is the error.
func EnsureTopics(ctx context.Context, c Cluster, partitions, replicas int, topics ...string) error {
	specs := make([]kafka.TopicConfig, len(topics))
	for i, t := range topics {
		specs[i] = kafka.TopicConfig{Topic: t, NumPartitions: partitions, ReplicationFactor: replicas}
	}
	return ensureTopics(ctx, c, specs...)
}

// keptForever are the settings of the topics the library makes for a service's own use, its
// dead-letter and replay topics: neither time nor size ever deletes a message of theirs (a dead
// letter waits for its replay however long that takes, and the replay topic is the record of
// what was replayed). Where the platform declares them, its declaration says the same.
var keptForever = []kafka.ConfigEntry{
	{ConfigName: "retention.ms", ConfigValue: "-1"},
	{ConfigName: "retention.bytes", ConfigValue: "-1"},
	{ConfigName: "cleanup.policy", ConfigValue: "delete"},
}

// ensureForever creates the topics of c that do not exist yet with the broker's default
// partitions and replicas, kept forever (keptForever).
func ensureForever(ctx context.Context, c Cluster, topics ...string) error {
	specs := make([]kafka.TopicConfig, len(topics))
	for i, t := range topics {
		specs[i] = kafka.TopicConfig{Topic: t, NumPartitions: brokerDefault, ReplicationFactor: brokerDefault, ConfigEntries: keptForever}
	}
	return ensureTopics(ctx, c, specs...)
}

// brokerDefault asks the broker for its default partition count or replication factor.
const brokerDefault = -1

// ensureTopics creates those of specs that c does not have yet.
func ensureTopics(ctx context.Context, c Cluster, specs ...kafka.TopicConfig) error {
	if len(specs) == 0 {
		return nil
	}
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Topic
	}
	client, closeClient := c.freshClient(names)
	defer closeClient()
	md, err := client.Metadata(ctx, &kafka.MetadataRequest{Topics: names})
	if err != nil {
		return fmt.Errorf("broker: look up topics: %w", err)
	}
	exists := map[string]bool{}
	for _, t := range md.Topics {
		switch {
		case t.Error == nil:
			exists[t.Name] = true
		case !errors.Is(t.Error, kafka.UnknownTopicOrPartition):
			return fmt.Errorf("broker: look up topic %s: %w", t.Name, t.Error)
		}
	}
	req := &kafka.CreateTopicsRequest{}
	for _, s := range specs {
		if !exists[s.Topic] {
			req.Topics = append(req.Topics, s)
		}
	}
	if len(req.Topics) == 0 {
		return nil
	}
	res, err := client.CreateTopics(ctx, req)
	if err != nil {
		return fmt.Errorf("broker: create topics: %w", err)
	}
	for topic, err := range res.Errors {
		if err != nil && !errors.Is(err, kafka.TopicAlreadyExists) {
			return fmt.Errorf("broker: create topic %s: %w", topic, err)
		}
	}
	return nil
}

func copyHeaders(h map[string]string) map[string]string {
	out := make(map[string]string, len(h)+2)
	for k, v := range h {
		out[k] = v
	}
	return out
}

func toKafka(h map[string]string) []kafka.Header {
	out := make([]kafka.Header, 0, len(h))
	for k, v := range h {
		out = append(out, kafka.Header{Key: k, Value: []byte(v)})
	}
	return out
}

func fromKafka(hs []kafka.Header) map[string]string {
	out := make(map[string]string, len(hs))
	for _, h := range hs {
		out[h.Key] = string(h.Value)
	}
	return out
}

// headerCarrier adapts a header map to the OpenTelemetry propagator.
type headerCarrier map[string]string

func (c headerCarrier) Get(k string) string { return c[k] }
func (c headerCarrier) Set(k, v string)     { c[k] = v }
func (c headerCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}
