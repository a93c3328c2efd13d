package main

import (
	"testing"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/auth/events"
)

// TestKafkaAccessIsTheDeclaredOne: auth publishes the key events and consumes nothing, as its
// principal is granted (deploy/kafkaacl).
func TestKafkaAccessIsTheDeclaredOne(t *testing.T) {
	declared, ok := kafkaacl.Of("auth")
	if !ok {
		t.Fatal("deploy/kafkaacl declares no access for auth")
	}
	brokertest.CheckAccess(t, declared, brokertest.LoadContracts(t, events.Files), nil, broker.DeadLetters{})
}
