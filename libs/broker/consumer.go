package broker

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
	"go.opentelemetry.io/otel/trace"
)

// Handler processes one message. An error wrapped by Poison means the message can never be
// handled: it is moved to the dead-letter topic. Any other error, or a panic, is a failure of
// something the handler depends on: the message is tried again, and the messages behind it in
// its partition wait. A message is never skipped silently.
type Handler func(ctx context.Context, m Message) error

// BatchHandler processes messages fetched together, in their order, all or none (one
// transaction): a handler that does one thing per message in one round trip does it for many.
// When it fails, for any reason, the consumer hands it the batch's messages again one at a
// time, each as a Handler's message (retried, or dead-lettered alone when it is poison); a
// batch handled in part is handled again, so it must be idempotent like every handler.
type BatchHandler func(ctx context.Context, ms []Message) error

// batchGather is how long the first message of a batch waits for more: those fetched already
// come at once, and a quiet partition delays its message by no more than this.
const batchGather = time.Millisecond

// ConsumerConfig configures Consume.
type ConsumerConfig struct {
	Cluster Cluster
	// Group is the consumer group; every instance of a service shares one, unless each instance
	// must see every message (then each uses a group of its own). Group names start with the
	// service's name and a dash: the service's dead-letters command finds its dead letters by
	// it, and the consumer reads the service's replay topic.
	Group  string
	Topics []string
	// StartAtEnd makes a new group start with messages published after it joined.
	StartAtEnd bool
	// Backoff returns the wait after the given failed attempt (1, 2, ...) of a message before
	// the next. Nil is DefaultBackoff.
	Backoff func(attempt int) time.Duration
	// MaxPanics is how many panics of the handler on one message make the message poison (a
	// handler that panics on the same input every time has a bug with that input). Zero means 3.
	MaxPanics int
	Log       *slog.Logger
	// Joined, if set, is called once the consumer first joined its group and was assigned
	// partitions (readiness of consumers whose absence must be visible).
	Joined func()
	// MaxBatch bounds the messages ConsumeBatches hands its handler at once; 0 is 100.
	MaxBatch int
}

// Consume reads messages until ctx is done, calling h for each and committing its offset only
// after h succeeded or the message was moved to the service's own dead-letter topic of its topic
// (DeadLetterTopic, the service named by the group), at least once: consumers dedupe through an
// inbox. A failing message is retried until it succeeds, holding back its partition; the reader
// keeps heartbeating meanwhile, and should the group rebalance, the uncommitted message is
// fetched again, never skipped. Consume also reads the service's replay topic (ReplayTopic) and
// hands h each replayed message of one of its topics as a message of that topic; it makes the
// replay and dead-letter topics first, kept forever, when the broker does not have them yet.
// Consume returns nil when ctx ends and an error when the broker fails (callers start it again).
func Consume(ctx context.Context, cfg ConsumerConfig, h Handler) error {
	cfg.MaxBatch = 1
	return consume(ctx, cfg, func(ctx context.Context, ms []Message) error { return h(ctx, ms[0]) })
}

// ConsumeBatches is Consume handing h the messages already fetched together, up to
// cfg.MaxBatch, and committing their offsets once all were handled (BatchHandler).
func ConsumeBatches(ctx context.Context, cfg ConsumerConfig, h BatchHandler) error {
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 100
	}
	return consume(ctx, cfg, h)
}

func consume(ctx context.Context, cfg ConsumerConfig, h BatchHandler) error {
	start := kafka.FirstOffset
	if cfg.StartAtEnd {
		start = kafka.LastOffset
	}
	service := serviceOf(cfg.Group)
	replays := ReplayTopic(service)
	own := []string{replays} // topics the service writes besides its events, kept forever
	for _, t := range cfg.Topics {
		own = append(own, DeadLetterTopic(service, t))
	}
	if err := ensureForever(ctx, cfg.Cluster, own...); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:           cfg.Cluster.Brokers,
		Dialer:            cfg.Cluster.dialer,
		GroupID:           cfg.Group,
		GroupTopics:       append(slices.Clone(cfg.Topics), replays),
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
	c := newConsumer(cfg, h)
	defer c.close()
	for {
		kms, err := fetch(ctx, r, cfg.MaxBatch)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("broker: fetch: %w", err)
		}
		batch := make([]Message, 0, len(kms))
		for _, km := range kms {
			m := Message{Topic: km.Topic, Key: string(km.Key), Value: km.Value, Headers: fromKafka(km.Headers), Partition: km.Partition, Offset: km.Offset}
			if mine(&m, replays, cfg.Topics) {
				batch = append(batch, m)
			}
		}
		if err := c.processBatch(ctx, batch); err != nil {
			return nil // ctx ended: the messages stay uncommitted and are fetched again
		}
		if err := r.CommitMessages(ctx, kms...); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("broker: commit: %w", err)
		}
	}
}

// fetch waits for a message and returns it with those fetched after it within batchGather,
// up to max in all.
func fetch(ctx context.Context, r *kafka.Reader, max int) ([]kafka.Message, error) {
	km, err := r.FetchMessage(ctx)
	if err != nil {
		return nil, err
	}
	kms := []kafka.Message{km}
	if max <= 1 {
		return kms, nil
	}
	gather, cancel := context.WithTimeout(ctx, batchGather)
	defer cancel()
	for len(kms) < max {
		km, err := r.FetchMessage(gather)
		if err != nil {
			break // the gathering ended; a broker failure shows at the next fetch
		}
		kms = append(kms, km)
	}
	return kms, nil
}

// mine turns m, when it comes from the replay topic, into the message of the topic it was
// replayed to, and reports whether m is this consumer's: a message of one of topics, or a
// replay of one. The replay topic is written by the service's principal alone (its
// dead-letters command), so the topic it names is the one the dead letter was taken from.
func mine(m *Message, replays string, topics []string) bool {
	if m.Topic != replays {
		return true
	}
	original := m.Headers[HeaderOriginalTopic]
	if !slices.Contains(topics, original) {
		return false // a replay for another of the service's consumers
	}
	m.Topic = original
	return true
}

// serviceOf returns the service a consumer group belongs to: the group's name up to its first
// dash (every group is named "<service>-...").
func serviceOf(group string) string {
	service, _, _ := strings.Cut(group, "-")
	return service
}

// consumer handles the messages of one Consume call.
type consumer struct {
	cfg       ConsumerConfig
	service   string
	h         BatchHandler
	backoff   func(int) time.Duration
	maxPanics int
	dead      *Writer
}

func newConsumer(cfg ConsumerConfig, h BatchHandler) *consumer {
	c := &consumer{cfg: cfg, service: serviceOf(cfg.Group), h: h, backoff: cfg.Backoff, maxPanics: cfg.MaxPanics}
	if c.backoff == nil {
		c.backoff = DefaultBackoff
	}
	if c.maxPanics <= 0 {
		c.maxPanics = 3
	}
	return c
}

func (c *consumer) close() {
	if c.dead != nil {
		_ = c.dead.Close()
	}
}

// process handles m until it succeeded or was dead-lettered, inside its process span. It
// returns an error only when ctx ended first.
func (c *consumer) process(ctx context.Context, m Message) error {
	pctx, span := startProcess(ctx, m, c.cfg.Group)
	defer span.End()
	err := c.handle(pctx, m)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	failed(span, err)
	return c.deadLetter(pctx, m, err)
}

// processBatch handles batch with one call of the handler, and when that fails, each of its
// messages alone (process). It returns an error only when ctx ended first.
func (c *consumer) processBatch(ctx context.Context, batch []Message) error {
	if len(batch) == 1 {
		return c.process(ctx, batch[0])
	}
	if len(batch) == 0 {
		return nil
	}
	bctx, span := startBatchProcess(ctx, batch, c.cfg.Group)
	// Each message keeps its process span in its own trace, linked to the batch's work.
	spans := make([]trace.Span, len(batch))
	for i, m := range batch {
		_, spans[i] = startProcess(ctx, m, c.cfg.Group, trace.WithLinks(trace.LinkFromContext(bctx)))
	}
	err := call(bctx, c.h, batch)
	for _, s := range append(spans, span) {
		if err != nil {
			failed(s, err)
		}
		s.End()
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	c.cfg.Log.WarnContext(ctx, "batch handler failed; handling its messages one at a time",
		"group", c.cfg.Group, "messages", len(batch), "err", err)
	for _, m := range batch {
		if err := c.process(ctx, m); err != nil {
			return err
		}
	}
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
