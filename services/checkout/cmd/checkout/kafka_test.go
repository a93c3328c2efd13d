package main

import (
	"testing"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/checkout/events"
	adapter "github.com/podiumhq/podium/services/checkout/internal/adapters/events"
)

// TestKafkaAccessIsTheDeclaredOne: checkout publishes its payment events and consumes
// registration's order events, as its principal is granted (deploy/kafkaacl).
func TestKafkaAccessIsTheDeclaredOne(t *testing.T) {
	declared, ok := kafkaacl.Of("checkout")
	if !ok {
		t.Fatal("deploy/kafkaacl declares no access for checkout")
	}
	orders := (&adapter.OrdersConsumer{}).Consumer()
	brokertest.CheckAccess(t, declared, brokertest.LoadContracts(t, events.Files),
		[]broker.ConsumerConfig{orders.Config}, adapter.DeadLetters(broker.Cluster{}))
}
