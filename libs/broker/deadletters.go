package broker

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
)

// HeaderReplayedFrom marks a message an operator replayed from a dead-letter topic: it names
// the dead letter as "<dead-letter topic>/<partition>/<offset>". The service's replay topic,
// kept forever, is thus the record of what was replayed.
const HeaderReplayedFrom = "x-replayed-from"

// ErrAlreadyReplayed is returned when the dead letter asked for was replayed before.
var ErrAlreadyReplayed = errors.New("dead letter already replayed")

// DeadLetter is one message a consumer moved to a dead-letter topic. Whose it is follows from
// Topic; Group, the consumer group that moved it there, is what its header says.
type DeadLetter struct {
	Topic             string    `json:"topic"`
	Partition         int       `json:"partition"`
	Offset            int64     `json:"offset"`
	OriginalTopic     string    `json:"originalTopic"`
	OriginalPartition int       `json:"originalPartition"`
	OriginalOffset    int64     `json:"originalOffset"`
	Group             string    `json:"group"`
	Reason            string    `json:"reason"`
	Key               string    `json:"key"`
	MessageID         string    `json:"messageId"`
	Type              string    `json:"type"`
	Time              time.Time `json:"time"`
	// Replayed tells whether the dead letter was republished to its service's consumers: whether
	// the service's replay topic holds a replay of it.
	Replayed bool `json:"replayed"`
	value    []byte
	headers  map[string]string
}

// DeadLetters reads and replays the dead letters of one service's consumers, without consuming
// them: the dead-letter topics keep them for later inspection.
type DeadLetters struct {
	Cluster Cluster
	// Service names the service. Its dead letters are those of its dead-letter topics
	// (DeadLetterTopic of Service and each of Topics), which only its principal writes; its
	// replay topic (ReplayTopic), which only its principal writes too, holds what it replayed.
	Service string
	// Topics are the topics the service consumes.
	Topics []string
}

// Selection picks dead letters.
type Selection struct {
	// Topic, when set, is one consumed topic (or the service's dead-letter topic of it).
	Topic string
	// One, when set, picks the single dead letter at Partition and Offset of the dead-letter
	// topic (Topic must be set).
	One       bool
	Partition int
	Offset    int64
}

// List calls fn with each selected dead letter of the service, in partition and offset order.
func (d DeadLetters) List(ctx context.Context, sel Selection, fn func(DeadLetter) error) error {
	return d.each(ctx, sel, fn)
}

// Replay republishes each selected dead letter of the service that was not replayed yet to the
// service's replay topic (same key, value and headers, plus HeaderOriginalTopic and
// HeaderReplayedFrom), where the service's consumers of its original topic read it, and calls fn
// with it. The replay is its own record: the next List or Replay finds it on the replay topic,
// which is kept forever, so no dead letter is replayed twice, however long after. Two replays
// run at once may both publish one: consumers dedupe by message id.
func (d DeadLetters) Replay(ctx context.Context, sel Selection, fn func(DeadLetter) error) error {
	if _, err := d.selectTopics(sel); err != nil {
		return err
	}
	if err := ensureForever(ctx, d.Cluster, ReplayTopic(d.Service)); err != nil {
		return err
	}
	w := NewWriter(d.Cluster)
	defer w.Close()
	return d.each(ctx, sel, func(dl DeadLetter) error {
		switch {
		case dl.Replayed && sel.One:
			return fmt.Errorf("%s: %w", dl.ref(), ErrAlreadyReplayed)
		case dl.Replayed:
			return nil
		}
		if err := w.Publish(ctx, d.replayMessage(dl)); err != nil {
			return fmt.Errorf("broker: replay %s: %w", dl.ref(), err)
		}
		dl.Replayed = true
		return fn(dl)
	})
}

// ref names dl as HeaderReplayedFrom does.
func (dl DeadLetter) ref() string { return fmt.Sprintf("%s/%d/%d", dl.Topic, dl.Partition, dl.Offset) }

// replayMessage is dl as it was first published, on the service's replay topic, naming the topic
// it is replayed to and marked as replayed from dl.
func (d DeadLetters) replayMessage(dl DeadLetter) Message {
	h := maps.Clone(dl.headers)
	for _, k := range []string{HeaderDeadLetterReason, HeaderDeadLetterGroup, HeaderOriginalPartition, HeaderOriginalOffset} {
		delete(h, k)
	}
	h[HeaderOriginalTopic] = dl.OriginalTopic
	h[HeaderReplayedFrom] = dl.ref()
	return Message{Topic: ReplayTopic(d.Service), Key: dl.Key, Value: dl.value, Headers: h}
}

// each reads the selected dead letters, marks those the replay topic holds a replay of, and
// calls fn with each.
func (d DeadLetters) each(ctx context.Context, sel Selection, fn func(dl DeadLetter) error) error {
	topics, err := d.selectTopics(sel)
	if err != nil {
		return err
	}
	c := d.client()
	logs, err := d.partitionLogs(ctx, c, topics)
	if err != nil {
		return err
	}
	replayed, err := d.replayed(ctx, c)
	if err != nil {
		return err
	}
	found := false
	for _, pl := range logs {
		from, to := pl.first, pl.end
		if sel.One {
			if pl.partition != sel.Partition {
				continue
			}
			found = true
			if sel.Offset < pl.first || sel.Offset >= pl.end {
				return fmt.Errorf("broker: %s/%d has no dead letter at offset %d (offsets %d to %d)", pl.topic, pl.partition, sel.Offset, pl.first, pl.end-1)
			}
			from, to = sel.Offset, sel.Offset+1
		}
		err := d.read(ctx, pl.topic, pl.partition, from, to, func(km kafka.Message) error {
			dl := toDeadLetter(km, pl.original)
			dl.Replayed = replayed[dl.replayKey()]
			return fn(dl)
		})
		if err != nil {
			return err
		}
	}
	if sel.One && !found {
		return fmt.Errorf("broker: %s has no partition %d", topics[0].name, sel.Partition)
	}
	return nil
}

// deadLetterTopic is one of the service's dead-letter topics and the topic it holds the dead
// letters of.
type deadLetterTopic struct{ name, original string }

// selectTopics returns the service's dead-letter topics sel names.
func (d DeadLetters) selectTopics(sel Selection) ([]deadLetterTopic, error) {
	if sel.Topic == "" && sel.One {
		return nil, errors.New("broker: a single dead letter needs its topic")
	}
	var out []deadLetterTopic
	for _, t := range d.Topics {
		if dead := DeadLetterTopic(d.Service, t); sel.Topic == "" || sel.Topic == t || sel.Topic == dead {
			out = append(out, deadLetterTopic{name: dead, original: t})
		}
	}
	if len(out) == 0 && sel.Topic != "" {
		return nil, fmt.Errorf("broker: %s does not consume %s (it consumes %s)", d.Service, sel.Topic, strings.Join(d.Topics, ", "))
	}
	return out, nil
}

// toDeadLetter reads a message of the service's dead-letter topic of original. Its original
// topic is that one, whatever its header says: a replay goes back only to the service's
// consumers of that topic.
func toDeadLetter(km kafka.Message, original string) DeadLetter {
	h := fromKafka(km.Headers)
	dl := DeadLetter{
		Topic: km.Topic, Partition: km.Partition, Offset: km.Offset,
		OriginalTopic: original, Group: h[HeaderDeadLetterGroup], Reason: h[HeaderDeadLetterReason],
		Key: string(km.Key), MessageID: h[HeaderID], Type: h[HeaderType], Time: km.Time.UTC(),
		value: km.Value, headers: h,
	}
	dl.OriginalPartition, _ = strconv.Atoi(h[HeaderOriginalPartition])
	dl.OriginalOffset, _ = strconv.ParseInt(h[HeaderOriginalOffset], 10, 64)
	return dl
}
