package deploy_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
)

// strimziCluster is the Kafka resource of Strimzi the KafkaUsers belong to (strimzi.io/cluster).
const strimziCluster = "kafka"

// kafkaUser is Strimzi's KafkaUser (kafka.strimzi.io/v1beta2) as far as the manifests use it:
// decoded strictly like every other manifest, so a misspelt field fails.
type kafkaUser struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		Authentication struct {
			Type     string `json:"type"`
			Password *struct {
				ValueFrom struct {
					SecretKeyRef corev1.SecretKeySelector `json:"secretKeyRef"`
				} `json:"valueFrom"`
			} `json:"password,omitempty"`
		} `json:"authentication"`
		Authorization struct {
			Type string     `json:"type"`
			ACLs []kafkaACL `json:"acls"`
		} `json:"authorization"`
	} `json:"spec"`
}

type kafkaACL struct {
	Resource struct {
		Type        string `json:"type"`
		Name        string `json:"name,omitempty"`
		PatternType string `json:"patternType,omitempty"`
	} `json:"resource"`
	Operations []string `json:"operations"`
	Host       string   `json:"host,omitempty"`
}

func (u *kafkaUser) DeepCopyObject() runtime.Object {
	b, _ := json.Marshal(u)
	var c kafkaUser
	_ = json.Unmarshal(b, &c)
	return &c
}

func init() {
	scheme.AddKnownTypeWithName(schema.GroupVersionKind{Group: "kafka.strimzi.io", Version: "v1beta2", Kind: "KafkaUser"}, &kafkaUser{})
}

// grantsOf lists u's ACLs as "<type>:<name>[*]=<operation>", one a line per operation.
func grantsOf(t *testing.T, u *kafkaUser) []string {
	t.Helper()
	var out []string
	for _, a := range u.Spec.Authorization.ACLs {
		name := a.Resource.Name
		switch a.Resource.PatternType {
		case "prefix":
			name += "*"
		case "literal", "":
		default:
			t.Errorf("KafkaUser %s: ACL pattern %q", u.Name, a.Resource.PatternType)
		}
		if a.Host != "" && a.Host != "*" {
			t.Errorf("KafkaUser %s: ACL for host %q: pods have no fixed address", u.Name, a.Host)
		}
		for _, op := range a.Operations {
			out = append(out, a.Resource.Type+":"+name+"="+op)
		}
	}
	slices.Sort(out)
	return out
}

// declaredGrants lists what a's grants allow, as grantsOf does.
func declaredGrants(a broker.Access) []string {
	var out []string
	for _, g := range a.Grants() {
		name := g.Name
		if g.Prefix {
			name += "*"
		}
		for _, op := range g.Operations {
			out = append(out, g.Resource+":"+name+"="+op)
		}
	}
	slices.Sort(out)
	return out
}

// TestKafkaUsersGrantExactlyTheDeclaredAccess: each service's principal is a KafkaUser of its
// own, authenticated by SCRAM-SHA-512 with the password of its own Secret, and its ACLs are
// exactly those its declared access needs (deploy/kafkaacl); no other principal exists.
func TestKafkaUsersGrantExactlyTheDeclaredAccess(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	objs := index(built, templates(files))
	users := map[string]*kafkaUser{}
	for _, u := range ofType[*kafkaUser](built) {
		users[u.Name] = u
	}
	for _, svc := range services {
		a, ok := kafkaacl.Of(svc)
		if !ok {
			t.Errorf("%s: deploy/kafkaacl declares no Kafka access", svc)
			continue
		}
		u, ok := users[kafkaacl.Principal(svc)]
		if !ok {
			t.Errorf("%s: no KafkaUser %s in the kustomization", svc, kafkaacl.Principal(svc))
			continue
		}
		delete(users, u.Name)
		if u.Labels["strimzi.io/cluster"] != strimziCluster || u.Labels[nameLabel] != svc {
			t.Errorf("KafkaUser %s: labels %v, want strimzi.io/cluster=%s and %s=%s", u.Name, u.Labels, strimziCluster, nameLabel, svc)
		}
		auth := u.Spec.Authentication
		if auth.Type != "scram-sha-512" || auth.Password == nil ||
			auth.Password.ValueFrom.SecretKeyRef.Name != svc+"-secrets" || auth.Password.ValueFrom.SecretKeyRef.Key != "KAFKA_SASL_PASSWORD" {
			t.Errorf("KafkaUser %s: want scram-sha-512 with the password KAFKA_SASL_PASSWORD of %s-secrets", u.Name, svc)
		}
		if s, ok := objs["Secret/"+svc+"-secrets"].obj.(*corev1.Secret); !ok || !hasKey(s.StringData, "KAFKA_SASL_PASSWORD") {
			t.Errorf("%s: secret.template.yaml lists no KAFKA_SASL_PASSWORD", svc)
		}
		if u.Spec.Authorization.Type != "simple" {
			t.Errorf("KafkaUser %s: authorization %q, want simple", u.Name, u.Spec.Authorization.Type)
		}
		if got, want := grantsOf(t, u), declaredGrants(a); !slices.Equal(got, want) {
			t.Errorf("KafkaUser %s grants\n  %s\nwant exactly\n  %s", u.Name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
	for name := range users {
		t.Errorf("KafkaUser %s belongs to no service", name)
	}
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// TestEachTopicIsWrittenByItsProducerAlone reads the KafkaUsers as a platform team would: who
// may write what. Every topic has one writer: an event topic the service that produces it, a
// dead-letter or replay topic the consumer it is named after; the gateway, which faces the
// internet, writes no event topic and no other service's dead letters; nothing is granted on
// the cluster, by a wildcard or with All.
func TestEachTopicIsWrittenByItsProducerAlone(t *testing.T) {
	grants, readers := map[string][]string{}, map[string][]string{}
	var gatewayGroups []string
	for _, u := range ofType[*kafkaUser](kustomizeBuild(t)) {
		grants[u.Name] = grantsOf(t, u)
		for _, a := range u.Spec.Authorization.ACLs {
			r := a.Resource
			if r.Type != broker.ResourceTopic && r.Type != broker.ResourceGroup || strings.Contains(r.Name, "*") || r.Name == "" ||
				slices.Contains(a.Operations, "All") || r.Type == broker.ResourceTopic && r.PatternType == "prefix" {
				t.Errorf("KafkaUser %s: grant %+v %v is broader than a named topic or its own groups", u.Name, r, a.Operations)
			}
			if r.Type == broker.ResourceGroup && u.Name == kafkaacl.Principal("gateway") {
				gatewayGroups = append(gatewayGroups, r.Name+"="+strings.Join(a.Operations, ","))
			}
			if r.Type == broker.ResourceTopic && slices.Contains(a.Operations, broker.OpRead) {
				readers[r.Name] = append(readers[r.Name], u.Name)
			}
		}
	}
	writers := writersOf(grants)
	checkOneWriterEach(t, "the KafkaUsers", writers)
	for topic, want := range map[string]string{
		"checkout.payments.v1":          "podium-checkout",
		"registration.orders.v1":        "podium-registration",
		"registration.places.v1":        "podium-registration",
		"registration.registrations.v1": "podium-registration",
		"registration.waitlist.v1":      "podium-registration",
		"auth.keys.v1":                  "podium-auth",
		"catalog.events.v1":             "podium-catalog",
	} {
		if got := writers[topic]; !slices.Equal(got, []string{want}) {
			t.Errorf("%s is written by %v, want %s alone", topic, got, want)
		}
	}
	var gatewayWrites []string
	for topic, who := range writers {
		if slices.Contains(who, kafkaacl.Principal("gateway")) {
			gatewayWrites = append(gatewayWrites, topic)
		}
	}
	slices.Sort(gatewayWrites)
	if want := []string{"gateway.auth.keys.v1.dead-letter", "gateway.catalog.events.v1.dead-letter", "gateway.replays"}; !slices.Equal(gatewayWrites, want) {
		t.Errorf("the gateway may write %v, want its own dead letters and replays alone %v: it publishes nothing", gatewayWrites, want)
	}
	for _, topic := range []string{"auth.keys.v1", "catalog.events.v1"} {
		if !slices.Contains(readers[topic], kafkaacl.Principal("gateway")) {
			t.Errorf("the gateway may not read %s", topic)
		}
	}
	for _, topic := range []string{"registration.registrations.v1", "registration.orders.v1", "checkout.payments.v1", "catalog.events.v1"} {
		if !slices.Contains(readers[topic], kafkaacl.Principal("webhooks")) {
			t.Errorf("webhooks may not read %s, which it turns into webhooks", topic)
		}
	}
	if !slices.Contains(readers["checkout.payments.v1"], kafkaacl.Principal("registration")) ||
		!slices.Contains(readers["registration.orders.v1"], kafkaacl.Principal("checkout")) {
		t.Errorf("registration must read checkout's payments and checkout registration's orders: %v", readers)
	}
	// Read on its groups implies Describe: each instance lists the live gateway instances.
	if !slices.Equal(gatewayGroups, []string{"gateway-=Read"}) {
		t.Errorf("the gateway's groups: %v, want Read (and the Describe it implies) on gateway-*", gatewayGroups)
	}
}

// writersOf returns the principals that may write each topic, from each principal's grants as
// grantsOf lists them.
func writersOf(grants map[string][]string) map[string][]string {
	writers := map[string][]string{}
	for principal, gs := range grants {
		for _, g := range gs {
			if topic, ok := strings.CutPrefix(g, broker.ResourceTopic+":"); ok && strings.HasSuffix(topic, "="+broker.OpWrite) {
				topic = strings.TrimSuffix(topic, "="+broker.OpWrite)
				writers[topic] = append(writers[topic], principal)
			}
		}
	}
	for _, who := range writers {
		slices.Sort(who)
	}
	return writers
}

// checkOneWriterEach checks that every topic some principal of source may write has exactly one
// writer (a topic two principals write carries no proof of who wrote a message): an event
// topic the service deploy/kafkaacl declares its producer; a dead-letter topic
// "<svc>.<topic>.dead-letter" the service svc, which consumes topic; a replay topic
// "<svc>.replays" the service svc, which consumes something. No other topic is writable.
func checkOneWriterEach(t *testing.T, source string, writers map[string][]string) {
	t.Helper()
	for topic, who := range writers {
		if len(who) != 1 {
			t.Errorf("%s: %s may be written by %v, want one principal", source, topic, who)
			continue
		}
		var owner string
		for _, a := range kafkaacl.Services {
			rest, named := strings.CutPrefix(topic, a.Service+".")
			consumed, dead := strings.CutSuffix(rest, broker.DeadLetterSuffix)
			if slices.Contains(a.Produces, topic) || named && dead && slices.Contains(a.Consumes, consumed) ||
				named && rest == "replays" && len(a.Consumes) > 0 {
				owner = kafkaacl.Principal(a.Service)
			}
		}
		switch {
		case owner == "":
			t.Errorf("%s: %s is written by %s, yet is no service's (an event topic it produces, or a dead-letter or replay topic named after it)", source, topic, who[0])
		case who[0] != owner:
			t.Errorf("%s: %s is written by %s, want %s", source, topic, who[0], owner)
		}
	}
}

// TestEachServiceConnectsAsItsOwnPrincipal: every Deployment authenticates with SCRAM-SHA-512
// as its own principal, with the password from its own Secret, over TLS checked against the
// brokers' authority mounted from the kafka-ca ConfigMap (a template).
func TestEachServiceConnectsAsItsOwnPrincipal(t *testing.T) {
	files, built := loadManifestFiles(t), kustomizeBuild(t)
	objs := index(built, templates(files))
	if _, ok := objs["ConfigMap/kafka-ca"]; !ok || objs["ConfigMap/kafka-ca"].file == "" {
		t.Errorf("no kafka-ca.template.yaml with the ConfigMap kafka-ca")
	}
	for _, d := range ofType[*appsv1.Deployment](built) {
		svc := d.Labels[nameLabel]
		w := workloads([]object{{obj: d}})[0]
		c := d.Spec.Template.Spec.Containers[0]
		env := resolveEnv(t, w, c, objs)
		want := map[string]string{
			"KAFKA_SASL_MECHANISM": config.SCRAMSHA512, "KAFKA_SASL_USERNAME": kafkaacl.Principal(svc), "KAFKA_TLS": "true",
		}
		for k, v := range want {
			if env.values[k] != v {
				t.Errorf("%s: %s=%q, want %q", d.Name, k, env.values[k], v)
			}
		}
		if got := envSources(t, d.Name, c, objs)["KAFKA_SASL_PASSWORD"]; got != "Secret/"+svc+"-secrets" {
			t.Errorf("%s: KAFKA_SASL_PASSWORD comes from %q, want its own Secret %s-secrets", d.Name, got, svc)
		}
		if !mountedFrom(d.Spec.Template.Spec, c, env.values["KAFKA_TLS_CA_FILE"], "kafka-ca") {
			t.Errorf("%s: KAFKA_TLS_CA_FILE=%q is not a file of the kafka-ca ConfigMap mounted read-only", d.Name, env.values["KAFKA_TLS_CA_FILE"])
		}
	}
}

// mountedFrom reports whether path is the key of configMap, mounted read-only in c.
func mountedFrom(pod corev1.PodSpec, c corev1.Container, path, configMap string) bool {
	for _, m := range c.VolumeMounts {
		key, ok := strings.CutPrefix(path, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok || !m.ReadOnly || strings.Contains(key, "/") {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.ConfigMap != nil && v.ConfigMap.Name == configMap {
				return true
			}
		}
	}
	return false
}
