package broker_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"go.opentelemetry.io/otel/attribute"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestTransientFailureIsRetriedPastTheOldLimitHoldingItsPartition(t *testing.T) {
	t.Parallel()
	const topic = "retry.payments.v1"
	var retrying atomic.Int64 // broker.retrying while first is retried
	cluster, got, seen := scenario(t, topic, "shop-retry", func(m broker.Message, n int) error {
		if m.Key == "first" && n == 25 {
			v, _ := sum("broker.retrying", attribute.String("topic", topic))
			retrying.Store(v)
		}
		if m.Key == "first" && n <= 25 {
			return errors.New("database unreachable")
		}
		return nil
	}, "first", "second")

	handled(t, got, "first", "second")
	want := append(slices.Repeat([]string{"first"}, 26), "second")
	if keys := seen.all(); !slices.Equal(keys, want) {
		t.Fatalf("attempts %v, want 26 of first (25 failures, then success) before second", keys)
	}
	if n := counter(t, "broker.retries", attribute.String("topic", topic)); n != 25 {
		t.Fatalf("broker.retries = %d, want 25", n)
	}
	if during, after := retrying.Load(), counter(t, "broker.retrying", attribute.String("topic", topic)); during != 1 || after != 0 {
		t.Fatalf("broker.retrying = %d while retrying and %d after, want 1 and 0", during, after)
	}
	if dls := deadLetters(t, cluster, "shop", topic); len(dls) != 0 || counter(t, "broker.dead_letters", attribute.String("topic", topic)) != 0 {
		t.Fatalf("a transient failure was dead-lettered: %+v", dls)
	}
}

func TestPoisonMessageIsDeadLetteredAtOnceAndTheNextHandled(t *testing.T) {
	t.Parallel()
	const topic = "poison.orders.v1"
	cluster, got, seen := scenario(t, topic, "shop-poison", func(m broker.Message, _ int) error {
		if m.Key == "poison" {
			return broker.Poisonf("undecodable data")
		}
		return nil
	}, "poison", "fine")

	handled(t, got, "fine")
	if keys := seen.all(); !slices.Equal(keys, []string{"poison", "fine"}) {
		t.Fatalf("attempts %v: a poison message is tried once", keys)
	}
	dls := deadLetters(t, cluster, "shop", topic)
	if len(dls) != 1 {
		t.Fatalf("dead letters %+v, want the poison message", dls)
	}
	dl := dls[0]
	if dl.Key != "poison" || dl.MessageID != "id-poison" || dl.OriginalTopic != topic || dl.OriginalPartition != 0 || dl.OriginalOffset != 0 ||
		dl.Group != "shop-poison" || !strings.Contains(dl.Reason, "undecodable data") || dl.Topic != "shop."+topic+".dead-letter" || dl.Time.IsZero() || dl.Replayed {
		t.Fatalf("dead letter %+v", dl)
	}
	if n := counter(t, "broker.dead_letters", attribute.String("topic", topic), attribute.String("reason", "poison")); n != 1 {
		t.Fatalf("broker.dead_letters = %d, want 1", n)
	}
}

func TestPanickingHandlerIsRecoveredRetriedThenDeadLettered(t *testing.T) {
	t.Parallel()
	const topic = "panic.orders.v1"
	cluster, got, seen := scenario(t, topic, "shop-panic", func(m broker.Message, n int) error {
		if m.Key == "boom" || (m.Key == "flaky" && n == 1) {
			panic("a bug with " + m.Key)
		}
		return nil
	}, "flaky", "boom", "after")

	handled(t, got, "flaky", "after")
	if keys := seen.all(); !slices.Equal(keys, []string{"flaky", "flaky", "boom", "boom", "boom", "after"}) {
		t.Fatalf("attempts %v: a panic is retried, three on one message make it poison", keys)
	}
	dls := deadLetters(t, cluster, "shop", topic)
	if len(dls) != 1 || dls[0].Key != "boom" || !strings.Contains(dls[0].Reason, "handler panicked: a bug with boom") {
		t.Fatalf("dead letters %+v, want boom's panic", dls)
	}
	if n := counter(t, "broker.dead_letters", attribute.String("topic", topic), attribute.String("reason", "panic")); n != 1 {
		t.Fatalf("broker.dead_letters{reason=panic} = %d, want 1", n)
	}
}

// TestRetryLongerThanTheSessionKeepsTheAssignment retries one message for longer than the
// group session timeout (10 s): the reader heartbeats meanwhile, so the member keeps its
// partition and nothing is fetched twice.
func TestRetryLongerThanTheSessionKeepsTheAssignment(t *testing.T) {
	if testing.Short() {
		t.Skip("takes about 12 s")
	}
	t.Parallel()
	const topic, group = "long.payments.v1", "shop-long"
	cluster := setup(t, topic)
	joined := make(chan struct{})
	var seen attempts
	got := consume(t, broker.ConsumerConfig{Cluster: cluster, Group: group, Topics: []string{topic}, Joined: func() { close(joined) },
		Backoff: func(int) time.Duration { return 100 * time.Millisecond }},
		func(_ context.Context, m broker.Message) error {
			if seen.add(m.Key) <= 120 && m.Key == "first" {
				return errors.New("peer unreachable")
			}
			return nil
		})
	select {
	case <-joined:
	case <-time.After(30 * time.Second):
		t.Fatal("the consumer did not join within 30s")
	}
	before := members(t, cluster, group)
	publish(t, cluster, topic, "first", "second")
	handled(t, got, "first", "second")
	if after := members(t, cluster, group); !slices.Equal(before, after) || len(after) != 1 {
		t.Fatalf("group members %v before the retry, %v after: the session was lost", before, after)
	}
	if keys := seen.all(); len(keys) != 122 || keys[121] != "second" {
		t.Fatalf("%d attempts ending %v, want 121 of first and then second", len(keys), keys[max(len(keys)-3, 0):])
	}
}

// members returns the member ids of group.
func members(t *testing.T, cluster broker.Cluster, group string) []string {
	t.Helper()
	c := &kafka.Client{Addr: kafka.TCP(cluster.Brokers...), Timeout: 10 * time.Second}
	res, err := c.DescribeGroups(t.Context(), &kafka.DescribeGroupsRequest{GroupIDs: []string{group}})
	if err != nil || len(res.Groups) != 1 || res.Groups[0].Error != nil {
		t.Fatalf("describe group %s: %v %+v", group, err, res)
	}
	var ids []string
	for _, m := range res.Groups[0].Members {
		ids = append(ids, m.MemberID)
	}
	return ids
}

func TestConsumerStopsWhileWaitingToRetry(t *testing.T) {
	t.Parallel()
	const topic = "stop.orders.v1"
	cluster := setup(t, topic)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var calls atomic.Int32
	failed := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- broker.Consume(ctx, broker.ConsumerConfig{Cluster: cluster, Group: "shop-stop", Topics: []string{topic}, Log: testkit.Logger(t),
			Backoff: func(int) time.Duration { return time.Hour }},
			func(context.Context, broker.Message) error {
				if calls.Add(1) == 1 {
					close(failed)
				}
				return errors.New("down")
			})
	}()
	publish(t, cluster, topic, "o1")
	select {
	case <-failed:
	case <-time.After(30 * time.Second):
		t.Fatal("the message was not handled within 30s")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil || calls.Load() != 1 {
			t.Fatalf("Consume returned %v after %d calls", err, calls.Load())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Consume did not return while waiting to retry")
	}
	if dls := deadLetters(t, cluster, "shop", topic); len(dls) != 0 {
		t.Fatalf("a message whose consumer stopped was dead-lettered: %+v", dls)
	}
}
