package broker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/segmentio/kafka-go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Handler processes one message. An error makes the consumer retry the message; it is never
// skipped silently.
type Handler func(ctx context.Context, m Message) error

// ConsumerConfig configures Consume.
type ConsumerConfig struct {
	Brokers []string
	// Group is the consumer group; every instance of a service shares one, unless each instance
	// must see every message (then each uses a group of its own).
	Group  string
	Topics []string
	// StartAtEnd makes a new group start with messages published after it joined.
	StartAtEnd bool
	// MaxAttempts is how often a failing message is tried before it is moved to the
	// "<topic>.dead-letter" topic and committed. Zero means 10.
	MaxAttempts int
	Log         *slog.Logger
	// Joined, if set, is called once the consumer first joined its group and was assigned
	// partitions (readiness of consumers whose absence must be visible).
	Joined func()
}

// Consume reads messages until ctx is done, calling h for each and committing its offset only
// after h succeeded (at-least-once). Consumers dedupe through an inbox.
func Consume(ctx context.Context, cfg ConsumerConfig, h Handler) error {
	start := kafka.FirstOffset
	if cfg.StartAtEnd {
		start = kafka.LastOffset
	}
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:           cfg.Brokers,
		GroupID:           cfg.Group,
		GroupTopics:       cfg.Topics,
		StartOffset:       start,
		MinBytes:          1,
		MaxBytes:          10 << 20,
		MaxWait:           250 * time.Millisecond,
		HeartbeatInterval: time.Second,
		SessionTimeout:    10 * time.Second,
		JoinGroupBackoff:  500 * time.Millisecond,
		ReadBackoffMin:    50 * time.Millisecond,
		ReadBackoffMax:    time.Second,
	})
	defer r.Close()
	if cfg.Joined != nil {
		go notifyJoined(ctx, r, cfg.Joined)
	}
	var dead *Writer
	defer func() {
		if dead != nil {
			_ = dead.Close()
		}
	}()
	maxAttempts := cfg.MaxAttempts
	if maxAttempts == 0 {
		maxAttempts = 10
	}
	for {
		km, err := r.FetchMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("broker: fetch: %w", err)
		}
		m := Message{Topic: km.Topic, Key: string(km.Key), Value: km.Value, Headers: fromKafka(km.Headers), Partition: km.Partition, Offset: km.Offset}
		if err := process(ctx, cfg, m, h, maxAttempts); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if dead == nil {
				dead = NewWriter(cfg.Brokers)
			}
			if err := deadLetter(ctx, dead, cfg, m, err); err != nil {
				return err
			}
		}
		if err := r.CommitMessages(ctx, km); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("broker: commit: %w", err)
		}
	}
}

// process runs h with retries and exponential backoff, inside a consumer span that continues
// the producer's trace.
func process(ctx context.Context, cfg ConsumerConfig, m Message, h Handler, maxAttempts int) error {
	pctx := otel.GetTextMapPropagator().Extract(ctx, headerCarrier(m.Headers))
	pctx, span := otel.Tracer("github.com/podiumhq/podium/libs/broker").Start(pctx, "consume "+m.Topic,
		trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(
			attribute.String("messaging.system", "kafka"),
			attribute.String("messaging.destination.name", m.Topic),
			attribute.String("messaging.consumer.group.name", cfg.Group),
			attribute.String("messaging.message.id", m.Headers[HeaderID]),
			attribute.Int("messaging.kafka.partition", m.Partition),
			attribute.Int64("messaging.kafka.offset", m.Offset),
		))
	defer span.End()
	backoff := 100 * time.Millisecond
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		if err = h(pctx, m); err == nil {
			return nil
		}
		cfg.Log.WarnContext(pctx, "message handler failed", "topic", m.Topic, "partition", m.Partition,
			"offset", m.Offset, "attempt", attempt, "err", err)
		if attempt == maxAttempts {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
	}
	span.SetStatus(codes.Error, err.Error())
	return err
}

func deadLetter(ctx context.Context, w *Writer, cfg ConsumerConfig, m Message, cause error) error {
	h := copyHeaders(m.Headers)
	h["x-dead-letter-reason"] = cause.Error()
	h["x-dead-letter-group"] = cfg.Group
	h["x-original-partition"] = strconv.Itoa(m.Partition)
	h["x-original-offset"] = strconv.FormatInt(m.Offset, 10)
	dl := Message{Topic: m.Topic + ".dead-letter", Key: m.Key, Value: m.Value, Headers: h}
	if err := w.Publish(ctx, dl); err != nil {
		return errors.Join(fmt.Errorf("broker: dead-letter %s offset %d", m.Topic, m.Offset), err)
	}
	cfg.Log.ErrorContext(ctx, "message moved to dead-letter topic", "topic", m.Topic, "partition", m.Partition,
		"offset", m.Offset, "dead_letter_topic", dl.Topic, "err", cause)
	return nil
}

// notifyJoined polls the reader's statistics until its first group generation (kafka-go offers
// no callback) and then calls joined.
func notifyJoined(ctx context.Context, r *kafka.Reader, joined func()) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if r.Stats().Rebalances > 0 {
				joined()
				return
			}
		}
	}
}
