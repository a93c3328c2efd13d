package config_test

import (
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/config"
)

func TestKafkaValidatesEveryProblem(t *testing.T) {
	t.Setenv("KAFKA_BROKERS", "kafka:9092, bad")
	t.Setenv("KAFKA_TOPIC_PARTITIONS", "0")
	t.Setenv("KAFKA_REPLICATION_FACTOR", "0")
	_, err := config.Load[config.Kafka]()
	for _, want := range []string{`bad" must be host:port`, "KAFKA_TOPIC_PARTITIONS must be at least 1", "KAFKA_REPLICATION_FACTOR must be at least 1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load: %v; want it to say %q", err, want)
		}
	}
}

func TestKafkaTopicsDefault(t *testing.T) {
	t.Setenv("KAFKA_BROKERS", "kafka:9092")
	k, err := config.Load[config.Kafka]()
	if err != nil {
		t.Fatal(err)
	}
	if k.KafkaTopicPartitions != 3 || k.KafkaReplicationFactor != 1 {
		t.Fatalf("defaults %d partitions, replication %d; want 3, 1", k.KafkaTopicPartitions, k.KafkaReplicationFactor)
	}
}
