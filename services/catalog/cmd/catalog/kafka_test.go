package main

import (
	"testing"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/events"
	adapter "github.com/podiumhq/podium/services/catalog/internal/adapters/events"
)

// TestKafkaAccessIsTheDeclaredOne: the catalog publishes its event changes and consumes them
// (cache invalidation) and registration's places, as its principal is granted (deploy/kafkaacl).
func TestKafkaAccessIsTheDeclaredOne(t *testing.T) {
	declared, ok := kafkaacl.Of("catalog")
	if !ok {
		t.Fatal("deploy/kafkaacl declares no access for catalog")
	}
	invalidation, places := consumers(Config{InstanceID: "pod-1"}, broker.Cluster{}, testkit.Discard(), nil, nil, nil)
	brokertest.CheckAccess(t, declared, brokertest.LoadContracts(t, events.Files),
		[]broker.ConsumerConfig{invalidation.Config, places.Config}, adapter.DeadLetters(broker.Cluster{}))
}
