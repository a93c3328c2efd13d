package deploy_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/deploy/kafkaacl"
	"github.com/podiumhq/podium/libs/config"
)

// initScript is what kafka-init does: the password variable of each user it creates, and the
// grants of each principal as grantsOf lists them.
type initScript struct {
	passwords map[string]string
	grants    map[string][]string
}

// loadKafkaInit reads the script kafka-init runs: its `user <name> "$VAR"` and
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
	s := initScript{passwords: map[string]string{}, grants: map[string][]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
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
	script, initEnv := loadKafkaInit(t, source), composeEnv(t, initSvc)
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
