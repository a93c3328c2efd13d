package broker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
)

// partitionLog is one partition of a dead-letter topic: its offsets and what the service
// replayed from it.
type partitionLog struct {
	topic     string
	original  string // the consumed topic whose dead letters it holds
	partition int
	// first and end are the partition's first offset and the offset its next message will get.
	first, end int64
	replayed   replayLog
}

func (d DeadLetters) client() *kafka.Client { return d.Cluster.client() }

func (d DeadLetters) replayGroup() string { return d.Service + "-dead-letters" }

// partitionLogs returns the partitions of topics in order, with their offsets and replay logs;
// a topic that does not exist has no dead letters.
func (d DeadLetters) partitionLogs(ctx context.Context, c *kafka.Client, topics []deadLetterTopic) ([]*partitionLog, error) {
	names, originals := make([]string, len(topics)), map[string]string{}
	for i, t := range topics {
		names[i], originals[t.name] = t.name, t.original
	}
	md, err := c.Metadata(ctx, &kafka.MetadataRequest{Topics: names})
	if err != nil {
		return nil, fmt.Errorf("broker: dead-letter topics: %w", err)
	}
	parts := map[string][]int{}
	offsets := map[string][]kafka.OffsetRequest{}
	for _, t := range md.Topics {
		if errors.Is(t.Error, kafka.UnknownTopicOrPartition) {
			continue
		}
		if t.Error != nil {
			return nil, fmt.Errorf("broker: topic %s: %w", t.Name, t.Error)
		}
		for _, p := range t.Partitions {
			parts[t.Name] = append(parts[t.Name], p.ID)
			offsets[t.Name] = append(offsets[t.Name], kafka.FirstOffsetOf(p.ID), kafka.LastOffsetOf(p.ID))
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	lo, err := c.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: offsets})
	if err != nil {
		return nil, fmt.Errorf("broker: dead-letter offsets: %w", err)
	}
	committed, err := c.OffsetFetch(ctx, &kafka.OffsetFetchRequest{GroupID: d.replayGroup(), Topics: parts})
	if err == nil && !errors.Is(committed.Error, kafka.GroupIdNotFound) { // no group yet: nothing replayed
		err = committed.Error
	}
	if err != nil {
		return nil, fmt.Errorf("broker: replayed dead letters: %w", err)
	}
	var out []*partitionLog
	for topic, ps := range lo.Topics {
		for _, p := range ps {
			if p.Error != nil {
				return nil, fmt.Errorf("broker: offsets of %s/%d: %w", topic, p.Partition, p.Error)
			}
			pl := &partitionLog{topic: topic, original: originals[topic], partition: p.Partition, first: p.FirstOffset, end: p.LastOffset}
			for _, f := range committed.Topics[topic] {
				if f.Partition == p.Partition && f.Error == nil {
					pl.replayed = parseReplayLog(f.CommittedOffset, f.Metadata)
				}
			}
			out = append(out, pl)
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

// remember commits pl's replay log as the replay group's offset of the partition.
func (d DeadLetters) remember(ctx context.Context, c *kafka.Client, pl *partitionLog) error {
	res, err := c.OffsetCommit(ctx, &kafka.OffsetCommitRequest{
		GroupID: d.replayGroup(), GenerationID: -1,
		Topics: map[string][]kafka.OffsetCommit{pl.topic: {{Partition: pl.partition, Offset: pl.replayed.next, Metadata: pl.replayed.metadata()}}},
	})
	if err == nil {
		for _, p := range res.Topics[pl.topic] {
			err = errors.Join(err, p.Error)
		}
	}
	if err != nil {
		return fmt.Errorf("broker: remember replay of %s/%d: %w", pl.topic, pl.partition, err)
	}
	return nil
}

// replayLog is what was replayed from a dead-letter partition: every offset below next, and
// the offsets in above (dead letters replayed one at a time, out of order). It is kept as the
// replay group's committed offset (next) and its metadata (above).
type replayLog struct {
	next  int64
	above []int64
}

// parseReplayLog reads a committed offset (-1 when none) and its metadata, the offsets above
// it separated by commas.
func parseReplayLog(committed int64, metadata string) replayLog {
	l := replayLog{next: max(committed, 0)}
	for f := range strings.SplitSeq(metadata, ",") {
		if o, err := strconv.ParseInt(f, 10, 64); err == nil {
			l.add(o)
		}
	}
	return l
}

func (l replayLog) has(offset int64) bool {
	return offset < l.next || slices.Contains(l.above, offset)
}

// add records offset, advancing next over the offsets replayed in a row.
func (l *replayLog) add(offset int64) {
	if !l.has(offset) {
		l.above = append(l.above, offset)
	}
	for i := slices.Index(l.above, l.next); i >= 0; i = slices.Index(l.above, l.next) {
		l.above = slices.Delete(l.above, i, i+1)
		l.next++
	}
	slices.Sort(l.above)
}

func (l replayLog) metadata() string {
	fs := make([]string, len(l.above))
	for i, o := range l.above {
		fs[i] = strconv.FormatInt(o, 10)
	}
	return strings.Join(fs, ",")
}
