package broker_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestGroupMembersCountsRunningConsumers: each matching group's running consumers are counted; a
// group that only had offsets committed, one of another name, and one whose consumer stopped
// have none and are left out.
func TestGroupMembersCountsRunningConsumers(t *testing.T) {
	const topic = "podium.test.groups.v1"
	cluster := setup(t, topic)
	join := func(group string) context.CancelFunc {
		ctx, cancel := context.WithCancel(t.Context())
		joined := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = broker.Consume(ctx, broker.ConsumerConfig{
				Cluster: cluster, Group: group, Topics: []string{topic}, Log: testkit.Logger(t), Joined: func() { close(joined) },
			}, func(context.Context, broker.Message) error { return nil })
		}()
		t.Cleanup(func() { cancel(); <-done })
		select {
		case <-joined:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s did not join", group)
		}
		return func() { cancel(); <-done }
	}
	join("svc-a")
	join("svc-a")
	stopB := join("svc-b")
	join("other-a")
	c := &kafka.Client{Addr: kafka.TCP(cluster.Brokers...)}
	if _, err := c.OffsetCommit(t.Context(), &kafka.OffsetCommitRequest{
		GroupID: "svc-offsets-only", GenerationID: -1, Topics: map[string][]kafka.OffsetCommit{topic: {{Partition: 0, Offset: 0}}},
	}); err != nil {
		t.Fatal(err)
	}
	svc := func(g string) bool { return strings.HasPrefix(g, "svc-") }
	want := func(members map[string]int) {
		t.Helper()
		testkit.Eventually(t, 20*time.Second, func() string {
			got, err := broker.GroupMembers(t.Context(), cluster, svc)
			if err != nil || !maps.Equal(got, members) {
				return fmt.Sprintf("members %v (%v), want %v", got, err, members)
			}
			return ""
		})
	}
	want(map[string]int{"svc-a": 2, "svc-b": 1})
	stopB()
	want(map[string]int{"svc-a": 2})
}
