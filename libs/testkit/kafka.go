package testkit

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Kafka starts an in-process Kafka-protocol broker that creates topics on first use, and
// returns its bootstrap addresses. It stops when the test ends.
func Kafka(t testing.TB) []string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(3))
	if err != nil {
		t.Fatalf("testkit: start Kafka-protocol broker: %v", err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()
}
