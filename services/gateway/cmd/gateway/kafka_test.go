package main

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/libs/testkit"
	gwconfig "github.com/podiumhq/podium/services/gateway/internal/config"
	"github.com/podiumhq/podium/services/gateway/internal/edge"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// TestKafkaAccessIsTheDeclaredOne: the gateway, which faces the internet, publishes nothing and
// consumes auth's key events and the catalog's changes, as its principal is granted
// (deploy/kafkaacl).
func TestKafkaAccessIsTheDeclaredOne(t *testing.T) {
	declared, ok := kafkaacl.Of("gateway")
	if !ok {
		t.Fatal("deploy/kafkaacl declares no access for gateway")
	}
	gw := &edge.Gateway{
		Keys: keys.NewStore(nil, keys.Options{TTL: time.Minute, NegativeTTL: time.Minute, OriginTTL: time.Minute}),
		Edge: edgecache.New(10, 1<<20, time.Second, time.Now),
	}
	var configs []broker.ConsumerConfig
	for _, l := range newListeners(gwconfig.Config{InstanceID: "pod-1"}, broker.Cluster{}, gw, testkit.Discard()) {
		configs = append(configs, l.Config)
	}
	brokertest.CheckAccess(t, declared, nil, configs, deadLetters(broker.Cluster{}))
}
