package broker

import (
	"context"
	"errors"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// DeadLetterSuffix ends the name of every dead-letter topic (DeadLetterTopic).
const DeadLetterSuffix = ".dead-letter"

// Headers a dead letter carries besides the original message's own.
const (
	HeaderDeadLetterReason  = "x-dead-letter-reason"
	HeaderDeadLetterGroup   = "x-dead-letter-group"
	HeaderOriginalTopic     = "x-original-topic"
	HeaderOriginalPartition = "x-original-partition"
	HeaderOriginalOffset    = "x-original-offset"
)

// maxReasonBytes bounds the reason kept in a dead letter's header.
const maxReasonBytes = 1024

// DeadLetterTopic returns the topic service's consumers move the poison messages of topic to,
// "<service>.<topic>.dead-letter". Each consuming service has its own, which only its principal
// writes: whose dead letters a topic holds is known from its name, never from a header.
func DeadLetterTopic(service, topic string) string { return service + "." + topic + DeadLetterSuffix }

// ReplaySuffix names the topic a service's replayed dead letters are published to.
const ReplaySuffix = ".replays"

// ReplayTopic returns the topic the dead-letters command of service republishes to: only the
// service's principal writes it and only its consumers read it, so replaying needs no right to
// write the topics the service consumes, which belong to their producers.
func ReplayTopic(service string) string { return service + ReplaySuffix }

// deadLetter publishes m with the reason to the service's dead-letter topic of m's topic, trying
// again until the broker takes it or ctx ends, then counts and logs it once.
func (c *consumer) deadLetter(ctx context.Context, m Message, cause error) error {
	reason := cause.Error()
	if len(reason) > maxReasonBytes {
		reason = reason[:maxReasonBytes]
	}
	h := copyHeaders(m.Headers)
	h[HeaderDeadLetterReason] = reason
	h[HeaderDeadLetterGroup] = c.cfg.Group
	h[HeaderOriginalTopic] = m.Topic
	h[HeaderOriginalPartition] = strconv.Itoa(m.Partition)
	h[HeaderOriginalOffset] = strconv.FormatInt(m.Offset, 10)
	dl := Message{Topic: DeadLetterTopic(c.service, m.Topic), Key: m.Key, Value: m.Value, Headers: h}
	if c.dead == nil {
		c.dead = NewWriter(c.cfg.Cluster)
	}
	for attempt := 1; ; attempt++ {
		err := c.dead.Publish(ctx, dl)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.cfg.Log.WarnContext(ctx, "dead-letter publish failed; retrying", append(c.position(m, attempt), "err", err)...)
		if err := sleep(ctx, c.backoff(attempt)); err != nil {
			return err
		}
	}
	kind := "poison"
	if pe := (*panicError)(nil); errors.As(cause, &pe) {
		kind = "panic"
	}
	deadLetters.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(attribute.String("topic", m.Topic), attribute.String("reason", kind))))
	c.cfg.Log.ErrorContext(ctx, "message moved to dead-letter topic", "topic", m.Topic, "partition", m.Partition,
		"offset", m.Offset, "group", c.cfg.Group, "dead_letter_topic", dl.Topic, "reason", reason)
	return nil
}
