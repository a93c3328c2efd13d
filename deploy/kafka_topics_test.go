package deploy_test

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
)

// kafkaTopic is Strimzi's KafkaTopic (kafka.strimzi.io/v1beta2) as far as the manifests use it,
// decoded strictly: its configuration values are strings, as Kafka's are.
type kafkaTopic struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		TopicName  string            `json:"topicName,omitempty"`
		Partitions int               `json:"partitions"`
		Replicas   int               `json:"replicas"`
		Config     map[string]string `json:"config"`
	} `json:"spec"`
}

func (k *kafkaTopic) DeepCopyObject() runtime.Object {
	b, _ := json.Marshal(k)
	var c kafkaTopic
	_ = json.Unmarshal(b, &c)
	return &c
}

func init() {
	scheme.AddKnownTypeWithName(schema.GroupVersionKind{Group: "kafka.strimzi.io", Version: "v1beta2", Kind: "KafkaTopic"}, &kafkaTopic{})
}

// declaredTopic is a topic as a deployment declares it.
type declaredTopic struct {
	partitions, replicas int
	config               map[string]string
}

// wantTopics is the table of deploy/kafkaacl on a cluster of r, by name.
func wantTopics(r kafkaacl.Replication) map[string]declaredTopic {
	out := map[string]declaredTopic{}
	for _, t := range kafkaacl.Topics() {
		out[t.Name] = declaredTopic{partitions: t.Partitions, replicas: r.Replicas, config: t.Config(r)}
	}
	return out
}

// checkDeclaredTopics checks that source declares exactly the topic table's topics with its
// settings on a cluster of r.
func checkDeclaredTopics(t *testing.T, source string, got map[string]declaredTopic, r kafkaacl.Replication) {
	t.Helper()
	want := wantTopics(r)
	for _, name := range slices.Sorted(maps.Keys(got)) {
		g, w := got[name], want[name]
		switch {
		case w.config == nil:
			t.Errorf("%s declares %s, which deploy/kafkaacl does not (Topics)", source, name)
		case g.partitions != w.partitions || g.replicas != w.replicas || !maps.Equal(g.config, w.config):
			t.Errorf("%s declares %s with %d partitions, %d replicas and %v, want %d, %d and %v",
				source, name, g.partitions, g.replicas, g.config, w.partitions, w.replicas, w.config)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[name]; !ok {
			t.Errorf("%s does not declare %s (deploy/kafkaacl, Topics)", source, name)
		}
	}
}

// TestTheTopicTableHoldsEveryTopicAServiceUses: every topic a principal is granted is in the
// table of deploy/kafkaacl, owned by the one principal that writes it; every event topic has one
// producer, and every topic of the table is written by its owner. The services' dead-letter and
// replay topics are kept forever, the others for a set time, and no setting is left to a broker
// default or can stall a publish: min.insync.replicas is below the replicas, so one broker may
// be down.
func TestTheTopicTableHoldsEveryTopicAServiceUses(t *testing.T) {
	topics := map[string]kafkaacl.Topic{}
	for _, tp := range kafkaacl.Topics() {
		if _, dup := topics[tp.Name]; dup {
			t.Errorf("Topics declares %s twice", tp.Name)
		}
		topics[tp.Name] = tp
	}
	for _, a := range kafkaacl.Services {
		for _, g := range a.Grants() {
			if g.Resource != broker.ResourceTopic {
				continue
			}
			tp, ok := topics[g.Name]
			switch {
			case !ok:
				t.Errorf("%s is granted %v on %s, which Topics does not declare", a.Service, g.Operations, g.Name)
			case slices.Contains(g.Operations, broker.OpWrite) != (tp.Owner == a.Service):
				t.Errorf("%s: %s is owned by %q, and %s may write it: %v", g.Name, g.Name, tp.Owner, a.Service, g.Operations)
			}
		}
	}
	for _, e := range kafkaacl.Events {
		var producers []string
		for _, a := range kafkaacl.Services {
			if slices.Contains(a.Produces, e.Name) {
				producers = append(producers, a.Service)
			}
		}
		if len(producers) != 1 {
			t.Errorf("event topic %s is produced by %v, want one service", e.Name, producers)
		}
	}
	for _, tp := range topics {
		own := strings.HasSuffix(tp.Name, broker.DeadLetterSuffix) || tp.Name == broker.ReplayTopic(tp.Owner)
		if own != (tp.RetentionMs == kafkaacl.Forever) || tp.RetentionMs == 0 || tp.Partitions < 1 {
			t.Errorf("%s: %d partitions, retention.ms %d: dead-letter and replay topics are kept forever, event topics a set time",
				tp.Name, tp.Partitions, tp.RetentionMs)
		}
	}
	for _, r := range []kafkaacl.Replication{kafkaacl.Replicated, kafkaacl.SingleNode} {
		if r.MinInSync < 1 || r.MinInSync > r.Replicas || r.Replicas > 1 && r.MinInSync == r.Replicas {
			t.Errorf("replication %+v: min.insync.replicas must be at least 1 and, on several brokers, below the replicas", r)
		}
	}
}

// TestKafkaTopicsDeclareTheTopicTable: the Kubernetes manifests declare every topic as a Strimzi
// KafkaTopic with exactly the settings of deploy/kafkaacl on the replicated cluster, in the folder
// of the service that owns it, applied before the pods that use it.
func TestKafkaTopicsDeclareTheTopicTable(t *testing.T) {
	owners := map[string]string{}
	for _, tp := range kafkaacl.Topics() {
		owners[tp.Name] = tp.Owner
	}
	for _, o := range loadManifestFiles(t) {
		if k, ok := o.obj.(*kafkaTopic); ok && filepath.Dir(o.file) != owners[topicName(k)] {
			t.Errorf("%s: KafkaTopic %s belongs in the folder of %q, which owns it", o.file, topicName(k), owners[topicName(k)])
		}
	}
	got := map[string]declaredTopic{}
	for _, k := range ofType[*kafkaTopic](kustomizeBuild(t)) {
		name := topicName(k)
		if _, dup := got[name]; dup {
			t.Errorf("two KafkaTopics declare %s", name)
		}
		got[name] = declaredTopic{partitions: k.Spec.Partitions, replicas: k.Spec.Replicas, config: k.Spec.Config}
		if k.Labels["strimzi.io/cluster"] != strimziCluster || k.Labels[nameLabel] != owners[name] || k.Labels[applyFirstLabel] != "true" {
			t.Errorf("KafkaTopic %s: labels %v, want strimzi.io/cluster=%s, %s=%s (its owner) and %s=true",
				name, k.Labels, strimziCluster, nameLabel, owners[name], applyFirstLabel)
		}
	}
	checkDeclaredTopics(t, "deploy/k8s", got, kafkaacl.Replicated)
}

// topicName is the Kafka topic k declares: spec.topicName, or else its name.
func topicName(k *kafkaTopic) string {
	if k.Spec.TopicName != "" {
		return k.Spec.TopicName
	}
	return k.Name
}

// TestNoPrincipalMayCreateOrAlterATopic: the KafkaUsers and kafka-init grant Read and Write
// alone, so no service makes a topic or changes its settings: where a topic is missing, a
// service fails to start rather than make it with settings of its own.
func TestNoPrincipalMayCreateOrAlterATopic(t *testing.T) {
	sources := map[string]map[string][]string{"kafka-init": loadKafkaInit(t, kafkaInitSource(t, loadCompose(t))).grants, "deploy/k8s": {}}
	for _, u := range ofType[*kafkaUser](kustomizeBuild(t)) {
		sources["deploy/k8s"][u.Name] = grantsOf(t, u)
	}
	for source, principals := range sources {
		for principal, grants := range principals {
			for _, g := range grants {
				if op := g[strings.LastIndex(g, "=")+1:]; op != broker.OpRead && op != broker.OpWrite {
					t.Errorf("%s grants %s %s: only Read and Write are granted", source, principal, g)
				}
			}
		}
	}
}
