package broker_test

import (
	"context"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
)

// TestAConsumerIsReadyOnceItJoinedAndHandlesMessages: readiness fails until the consumer first
// joined its group, then holds, and the consumer handles what is published.
func TestAConsumerIsReadyOnceItJoinedAndHandlesMessages(t *testing.T) {
	const topic = "runner.v1"
	cluster := setup(t, topic)
	joined, handled := make(chan struct{}), make(chan string, 1)
	c := &broker.Consumer{
		Config: broker.ConsumerConfig{Cluster: cluster, Group: "test-runner", Topics: []string{topic}, Log: testkit.Logger(t), Joined: func() { close(joined) }},
		Handler: func(_ context.Context, m broker.Message) error {
			handled <- m.Key
			return nil
		},
		Topics: func(ctx context.Context) error { return broker.EnsureTopics(ctx, cluster, 1, 1, topic) },
		Log:    testkit.Logger(t),
	}
	if err := c.Ready(t.Context()); err == nil {
		t.Fatal("ready before it ran")
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	<-joined
	if err := c.Ready(t.Context()); err != nil {
		t.Fatalf("not ready after it joined: %v", err)
	}
	publish(t, cluster, topic, "k1")
	if k := <-handled; k != "k1" {
		t.Fatalf("handled %q", k)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run returned %v when stopped", err)
	}
}
