package deploy_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/config"
)

// initScript is what kafka-init does: the topics it declares, the password variable of each user
// it creates, and the grants of each principal as grantsOf lists them.
type initScript struct {
	topics    map[string]declaredTopic
	passwords map[string]string
	grants    map[string][]string
}

// loadKafkaInit reads the script kafka-init runs: its
// `topic <name> <partitions> <replication factor> <config>=<value>...`, `user <name> "$VAR"` and
// `allow <user> <type> <literal|prefixed> <name> <operation>...` lines.
func loadKafkaInit(t *testing.T, source string) initScript {
	t.Helper()
	if !filepath.IsAbs(source) {
		source = filepath.Join(repoRoot(t), source)
	}
	f, err := os.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := initScript{topics: map[string]declaredTopic{}, passwords: map[string]string{}, grants: map[string][]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 4 && fields[0] == "topic":
			partitions, perr := strconv.Atoi(fields[2])
			replicas, rerr := strconv.Atoi(fields[3])
			if perr != nil || rerr != nil {
				t.Errorf("kafka-init: %q: partitions and replication factor must be numbers", sc.Text())
			}
			if _, dup := s.topics[fields[1]]; dup {
				t.Errorf("kafka-init declares %s twice", fields[1])
			}
			d := declaredTopic{partitions: partitions, replicas: replicas, config: map[string]string{}}
			for _, kv := range fields[4:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Errorf("kafka-init: %q: %q is not <config>=<value>", sc.Text(), kv)
				}
				d.config[k] = v
			}
			s.topics[fields[1]] = d
		case len(fields) == 3 && fields[0] == "user":
			s.passwords[fields[1]] = strings.TrimSuffix(strings.TrimPrefix(fields[2], `"$`), `"`)
		case len(fields) >= 6 && fields[0] == "allow":
			name := fields[4]
			switch fields[3] {
			case "prefixed":
				name += "*"
			case "literal":
			default:
				t.Errorf("kafka-init: pattern %q in %q", fields[3], sc.Text())
			}
			for _, op := range fields[5:] {
				s.grants[fields[1]] = append(s.grants[fields[1]], fields[2]+":"+name+"="+op)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, g := range s.grants {
		slices.Sort(g)
	}
	return s
}

// TestComposeKafkaPrincipals: on the Compose stack too, each service authenticates as its own
// principal, with a password of its own that kafka-init sets, granted exactly its declared
// access (deploy/kafkaacl), and every topic has one writer; the broker authorizes every request and lets no one in without a
// user but on its loopback.
func TestComposeKafkaPrincipals(t *testing.T) {
	p := loadCompose(t)
	script, initEnv := loadKafkaInit(t, kafkaInitSource(t, p)), composeEnv(t, p.Services["kafka-init"])
	checkOneWriterEach(t, "kafka-init", writersOf(script.grants))
	passwords := map[string]string{}
	for _, svc := range services {
		a, ok := kafkaacl.Of(svc)
		if !ok {
			t.Errorf("%s: deploy/kafkaacl declares no Kafka access", svc)
			continue
		}
		principal, env := kafkaacl.Principal(svc), composeEnv(t, p.Services[svc])
		if env["KAFKA_SASL_MECHANISM"] != config.SCRAMSHA512 || env["KAFKA_SASL_USERNAME"] != principal {
			t.Errorf("%s: connects as %s with %q, want %s with %s", svc, env["KAFKA_SASL_USERNAME"], env["KAFKA_SASL_MECHANISM"], principal, config.SCRAMSHA512)
		}
		variable, ok := script.passwords[principal]
		if !ok || initEnv[variable] == "" || initEnv[variable] != env["KAFKA_SASL_PASSWORD"] {
			t.Errorf("%s: kafka-init does not create %s with the service's KAFKA_SASL_PASSWORD", svc, principal)
		}
		if other, dup := passwords[env["KAFKA_SASL_PASSWORD"]]; dup {
			t.Errorf("%s and %s share a Kafka password", svc, other)
		}
		passwords[env["KAFKA_SASL_PASSWORD"]] = svc
		if got, want := script.grants[principal], declaredGrants(a); !slices.Equal(got, want) {
			t.Errorf("kafka-init grants %s\n  %s\nwant exactly\n  %s", principal, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		delete(script.grants, principal)
		delete(script.passwords, principal)
	}
	for who := range script.grants {
		t.Errorf("kafka-init grants %s, which is no service's principal", who)
	}
	for who := range script.passwords {
		t.Errorf("kafka-init creates %s, which is no service's principal", who)
	}
	checkComposeBroker(t, composeEnv(t, p.Services["kafka"]))
}

// kafkaInitSource returns the script kafka-init runs, as p mounts it, and checks that kafka-init
// runs on the broker's network namespace (its loopback-only admin listener).
func kafkaInitSource(t *testing.T, p *types.Project) string {
	t.Helper()
	initSvc := p.Services["kafka-init"]
	var source string
	for _, v := range initSvc.Volumes {
		if n := len(initSvc.Entrypoint); n > 0 && v.Target == initSvc.Entrypoint[n-1] {
			source = v.Source
		}
	}
	if initSvc.NetworkMode != "service:kafka" || source == "" {
		t.Fatalf("kafka-init: want network_mode service:kafka and its script mounted at %v", initSvc.Entrypoint)
	}
	return source
}

// TestComposeDeclaresTheTopicTable: kafka-init declares exactly the topics of deploy/kafkaacl
// with their settings on the stack's one broker (the services, which may create none, wait for
// it), and the broker makes no topic on a request for an unknown one.
func TestComposeDeclaresTheTopicTable(t *testing.T) {
	p := loadCompose(t)
	checkDeclaredTopics(t, "kafka-init", loadKafkaInit(t, kafkaInitSource(t, p)).topics, kafkaacl.SingleNode)
	if env := composeEnv(t, p.Services["kafka"]); env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] != "false" {
		t.Errorf("kafka: KAFKA_AUTO_CREATE_TOPICS_ENABLE=%q, want false", env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"])
	}
}

// checkComposeBroker checks the broker's security: the services' listener takes SCRAM, every
// other listener is on the loopback, and the authorizer refuses what no ACL allows.
func checkComposeBroker(t *testing.T, env map[string]string) {
	t.Helper()
	protocols := map[string]string{}
	for _, entry := range strings.Split(env["KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"], ",") {
		name, protocol, _ := strings.Cut(entry, ":")
		protocols[name] = protocol
	}
	for _, l := range strings.Split(env["KAFKA_LISTENERS"], ",") {
		name, addr, _ := strings.Cut(l, "://")
		host, _ := splitAddress(addr)
		if protocols[name] != "SASL_PLAINTEXT" && host != "127.0.0.1" {
			t.Errorf("kafka: listener %s (%s) takes no credentials and is reachable beyond the broker's loopback", l, protocols[name])
		}
	}
	if protocols["CLIENT"] != "SASL_PLAINTEXT" || env["KAFKA_SASL_ENABLED_MECHANISMS"] != config.SCRAMSHA512 ||
		!strings.Contains(env["KAFKA_ADVERTISED_LISTENERS"], "CLIENT://kafka:9092") {
		t.Errorf("kafka: the services' listener kafka:9092 (KAFKA_BROKERS) must take %s", config.SCRAMSHA512)
	}
	for k, want := range map[string]string{
		"KAFKA_AUTHORIZER_CLASS_NAME": "org.apache.kafka.metadata.authorizer.StandardAuthorizer", "KAFKA_SUPER_USERS": "User:ANONYMOUS",
		"KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND": "false", "KAFKA_AUTO_CREATE_TOPICS_ENABLE": "false",
	} {
		if env[k] != want {
			t.Errorf("kafka: %s=%q, want %q", k, env[k], want)
		}
	}
}
