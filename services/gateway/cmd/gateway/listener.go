package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"strings"

	"github.com/podiumhq/podium/libs/broker"
	gwconfig "github.com/podiumhq/podium/services/gateway/internal/config"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// listener applies one topic's events to this instance's caches. Each instance has a consumer
// group of its own, so every instance sees every event.
type listener struct {
	what string
	*broker.Consumer
}

// Group prefixes of the listeners: each instance has one group of each, named by its instance
// ID (GATEWAY_INSTANCE_ID must not start with "edge-").
const (
	keyEventsGroups = "gateway-"
	catalogGroups   = "gateway-edge-"
)

// instanceGroup reports whether a group is an instance's key-event group: every running
// instance has one with a member, so these groups count the instances.
func instanceGroup(group string) bool {
	return strings.HasPrefix(group, keyEventsGroups) && !strings.HasPrefix(group, catalogGroups)
}

// newRevocationListener applies auth's key events to the key cache, read from the topic's start
// (replaying old revocations is harmless and closes the window before the group is joined).
func newRevocationListener(cfg gwconfig.Config, cluster broker.Cluster, store *keys.Store, log *slog.Logger) *listener {
	return newListener(cfg, cluster, log, "key events", keyEventsGroups, keys.Topic, false, store.HandleEvent)
}

// newCatalogListener drops the edge cache's answers of an organizer whose events changed. A new
// instance keeps nothing yet, so it starts with the events published after it joined.
func newCatalogListener(cfg gwconfig.Config, cluster broker.Cluster, edge *edgecache.Cache, log *slog.Logger) *listener {
	return newListener(cfg, cluster, log, "catalog changes", catalogGroups, edgecache.CatalogTopic, true, edge.HandleCatalogEvent)
}

func newListener(cfg gwconfig.Config, cluster broker.Cluster, log *slog.Logger, what, groupPrefix, topic string, startAtEnd bool, h broker.Handler) *listener {
	return &listener{what: what, Consumer: &broker.Consumer{
		Config: broker.ConsumerConfig{
			Cluster: cluster, Group: groupPrefix + cfg.InstanceID, Topics: []string{topic}, StartAtEnd: startAtEnd, Log: log,
		},
		Handler: h,
		Topics: func(ctx context.Context) error {
			return broker.EnsureTopics(ctx, cluster, cfg.KafkaTopicPartitions, cfg.KafkaReplicationFactor, topic)
		},
		Log: log,
	}}
}

// deadLetters returns the dead letters of the gateway's listeners (operator command): their
// groups are "gateway-<instance>" and "gateway-edge-<instance>".
func deadLetters(cluster broker.Cluster) broker.DeadLetters {
	return broker.DeadLetters{Cluster: cluster, Service: "gateway", Topics: []string{keys.Topic, edgecache.CatalogTopic}}
}

// instanceID names this process uniquely: the host name plus random bits, since restarted pods
// keep their names.
func instanceID() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}
