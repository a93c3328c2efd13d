package main

import (
	"testing"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/registration/events"
	adapter "github.com/podiumhq/podium/services/registration/internal/adapters/events"
)

// TestKafkaAccessIsTheDeclaredOne: registration publishes its order and places events and
// consumes checkout's payments, as its principal is granted (deploy/kafkaacl).
func TestKafkaAccessIsTheDeclaredOne(t *testing.T) {
	declared, ok := kafkaacl.Of("registration")
	if !ok {
		t.Fatal("deploy/kafkaacl declares no access for registration")
	}
	payments := adapter.Consumer(broker.Cluster{}, nil, nil, nil)
	brokertest.CheckAccess(t, declared, brokertest.LoadContracts(t, events.Files),
		[]broker.ConsumerConfig{payments.Config}, adapter.DeadLetters(broker.Cluster{}))
}
