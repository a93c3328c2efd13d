package main

import (
	"testing"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
)

// TestKafkaAccessIsTheDeclaredOne: webhooks publishes nothing and consumes the producers'
// topics in a group of its own, as its principal is granted (deploy/kafkaacl).
func TestKafkaAccessIsTheDeclaredOne(t *testing.T) {
	declared, ok := kafkaacl.Of("webhooks")
	if !ok {
		t.Fatal("deploy/kafkaacl declares no access for webhooks")
	}
	consumer := (&events.Consumer{}).Consumer()
	brokertest.CheckAccess(t, declared, nil, []broker.ConsumerConfig{consumer.Config}, events.DeadLetters(broker.Cluster{}))
}
