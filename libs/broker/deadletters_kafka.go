package broker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/segmentio/kafka-go"
)

// partitionLog is one partition of a topic and its offsets.
type partitionLog struct {
	topic     string
	original  string // for a dead-letter topic, the consumed topic whose dead letters it holds
	partition int
	// first and end are the partition's first offset and the offset its next message will get.
	first, end int64
}

func (d DeadLetters) client() *kafka.Client { return d.Cluster.client() }

// partitionLogs returns the partitions of topics in order, with their offsets; a topic that
// does not exist has none.
func (d DeadLetters) partitionLogs(ctx context.Context, c *kafka.Client, topics []deadLetterTopic) ([]*partitionLog, error) {
	names, originals := make([]string, len(topics)), map[string]string{}
	for i, t := range topics {
		names[i], originals[t.name] = t.name, t.original
	}
	md, err := c.Metadata(ctx, &kafka.MetadataRequest{Topics: names})
	if err != nil {
		return nil, fmt.Errorf("broker: topics %v: %w", names, err)
	}
	offsets := map[string][]kafka.OffsetRequest{}
	for _, t := range md.Topics {
		if errors.Is(t.Error, kafka.UnknownTopicOrPartition) {
			continue
		}
		if t.Error != nil {
			return nil, fmt.Errorf("broker: topic %s: %w", t.Name, t.Error)
		}
		for _, p := range t.Partitions {
			offsets[t.Name] = append(offsets[t.Name], kafka.FirstOffsetOf(p.ID), kafka.LastOffsetOf(p.ID))
		}
	}
	if len(offsets) == 0 {
		return nil, nil
	}
	lo, err := c.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: offsets})
	if err != nil {
		return nil, fmt.Errorf("broker: offsets of %v: %w", names, err)
	}
	var out []*partitionLog
	for topic, ps := range lo.Topics {
		for _, p := range ps {
			if p.Error != nil {
				return nil, fmt.Errorf("broker: offsets of %s/%d: %w", topic, p.Partition, p.Error)
			}
			out = append(out, &partitionLog{topic: topic, original: originals[topic], partition: p.Partition, first: p.FirstOffset, end: p.LastOffset})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].topic != out[j].topic {
			return out[i].topic < out[j].topic
		}
		return out[i].partition < out[j].partition
	})
	return out, nil
}

// replayed reads the service's replay topic, which only its principal writes and which is kept
// forever, and returns the dead letters replayed so far (replayKey).
func (d DeadLetters) replayed(ctx context.Context, c *kafka.Client) (map[replayKey]bool, error) {
	logs, err := d.partitionLogs(ctx, c, []deadLetterTopic{{name: ReplayTopic(d.Service)}})
	if err != nil {
		return nil, err
	}
	out := map[replayKey]bool{}
	for _, pl := range logs {
		err := d.read(ctx, pl.topic, pl.partition, pl.first, pl.end, func(km kafka.Message) error {
			h := fromKafka(km.Headers)
			if from, ok := h[HeaderReplayedFrom]; ok {
				out[replayKey{from: from, messageID: h[HeaderID]}] = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// replayKey is what tells a replay's dead letter: its place (HeaderReplayedFrom) and its message
// id, so that a dead-letter topic deleted and made again, whose offsets start over, holds no
// dead letter that passes for one replayed before.
type replayKey struct{ from, messageID string }

func (dl DeadLetter) replayKey() replayKey { return replayKey{from: dl.ref(), messageID: dl.MessageID} }

// read calls fn with the messages of topic's partition from offset from up to, not including,
// offset to.
func (d DeadLetters) read(ctx context.Context, topic string, partition int, from, to int64, fn func(kafka.Message) error) error {
	if from >= to {
		return nil
	}
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers: d.Cluster.Brokers, Dialer: d.Cluster.dialer, Topic: topic, Partition: partition, MinBytes: 1, MaxBytes: 10 << 20, MaxWait: 250 * time.Millisecond,
	})
	defer r.Close()
	if err := r.SetOffset(from); err != nil {
		return fmt.Errorf("broker: read %s/%d: %w", topic, partition, err)
	}
	for {
		km, err := r.ReadMessage(ctx)
		if err != nil {
			return fmt.Errorf("broker: read %s/%d: %w", topic, partition, err)
		}
		if km.Offset >= to {
			return nil
		}
		if err := fn(km); err != nil {
			return err
		}
		if km.Offset == to-1 {
			return nil
		}
	}
}
