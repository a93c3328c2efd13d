package kafkaacl

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/podiumhq/podium/libs/broker"
)

// Topic is a topic the platform declares where it runs Kafka, with the settings it is made and
// kept with: the KafkaTopics of the Kubernetes manifests (k8s/<owner>/kafkatopics.yaml) and the
// topic lines of the Compose stack (compose/kafka-init.sh) declare exactly Topics (the deploy
// tests check both). No service may create a topic (broker.Access.Grants), so no service can
// give one settings of its own.
type Topic struct {
	Name string
	// Owner is the service whose principal alone writes it: an event topic's producer, or the
	// consuming service a dead-letter or replay topic is named after.
	Owner      string
	Partitions int
	// RetentionMs is how long a message is kept (retention.ms); Forever keeps it until an
	// operator deletes the topic.
	RetentionMs int64
}

// Forever is the retention of a topic whose messages are never deleted.
const Forever = -1

// week is Kafka's default retention, declared so that no broker default decides it.
const week = 7 * 24 * 60 * 60 * 1000

// Events are the event topics, each with its partitions and retention; Topics adds each one's
// owner. Every topic a service of Services produces or consumes is one of them.
var Events = []Topic{
	{Name: "auth.keys.v1", Partitions: 3, RetentionMs: week},
	{Name: "catalog.events.v1", Partitions: 3, RetentionMs: week},
	{Name: "registration.places.v1", Partitions: 3, RetentionMs: week},
	{Name: "registration.orders.v1", Partitions: 3, RetentionMs: week},
	{Name: "registration.registrations.v1", Partitions: 3, RetentionMs: week},
	{Name: "registration.waitlist.v1", Partitions: 3, RetentionMs: week},
	{Name: "checkout.payments.v1", Partitions: 3, RetentionMs: week},
}

// Topics returns every topic the platform declares, sorted by name: Events, owned by their
// producers, and each consuming service's dead-letter topic of each topic it consumes and its
// replay topic, owned by the service and kept forever (a dead letter waits for its replay however
// long that takes, and the replay topic is the record of what was replayed). One partition each:
// they carry little, and the dead-letters command lists them in order.
func Topics() []Topic {
	var out []Topic
	for _, e := range Events {
		for _, a := range Services {
			if slices.Contains(a.Produces, e.Name) {
				e.Owner = a.Service
				out = append(out, e)
			}
		}
	}
	for _, a := range Services {
		own := func(name string) Topic {
			return Topic{Name: name, Owner: a.Service, Partitions: 1, RetentionMs: Forever}
		}
		for _, t := range a.Consumes {
			out = append(out, own(broker.DeadLetterTopic(a.Service, t)))
		}
		if len(a.Consumes) > 0 {
			out = append(out, own(broker.ReplayTopic(a.Service)))
		}
	}
	slices.SortFunc(out, func(x, y Topic) int { return cmp.Compare(x.Name, y.Name) })
	return out
}

// Replication is how many copies of each partition a cluster keeps, and how many must hold a
// message before a publish succeeds (the services' writers wait for all in-sync replicas).
type Replication struct{ Replicas, MinInSync int }

var (
	// Replicated is the Kubernetes cluster's: an acknowledged message is on two brokers at
	// least, and one broker may be down while publishing goes on.
	Replicated = Replication{Replicas: 3, MinInSync: 2}
	// SingleNode is the Compose stack's one broker.
	SingleNode = Replication{Replicas: 1, MinInSync: 1}
)

// Config returns t's topic configuration on a cluster of r: its retention by time alone (no
// size limit), deletion of what it no longer keeps (never compaction, which would keep one
// message a key), and r's minimum of in-sync replicas.
func (t Topic) Config(r Replication) map[string]string {
	return map[string]string{
		"cleanup.policy":      "delete",
		"min.insync.replicas": strconv.Itoa(r.MinInSync),
		"retention.ms":        strconv.FormatInt(t.RetentionMs, 10),
		"retention.bytes":     "-1",
	}
}
