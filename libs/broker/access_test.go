package broker_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/testkit"
)

// The services of the secured cluster below: shop publishes payments, ledger consumes them.
const paymentsTopic = "shop.payments.v1"

var (
	shop   = broker.Access{Service: "shop", Produces: []string{paymentsTopic}}
	ledger = broker.Access{Service: "ledger", Consumes: []string{paymentsTopic}}
)

// securedCluster starts a Kafka-protocol broker that requires SCRAM-SHA-512 over TLS and
// enforces ACLs, with the super user "admin" (the platform, which declares the topics) and each
// of services as its principal granted exactly its Access.Grants; as returns how a principal
// connects to it (the authority's file empty for the system's).
func securedCluster(t *testing.T, services ...broker.Access) (c *kfake.Cluster, as func(user, password, caFile string) broker.Cluster, ca string) {
	t.Helper()
	ca, serverTLS := certificates(t)
	opts := []kfake.Opt{kfake.NumBrokers(1), kfake.DefaultNumPartitions(1), kfake.TLS(serverTLS),
		kfake.EnableSASL(), kfake.Superuser(config.SCRAMSHA512, "admin", "admin-secret"), kfake.EnableACLs()}
	for _, a := range services {
		opts = append(opts, kfake.User(config.SCRAMSHA512, "podium-"+a.Service, a.Service+"-secret", seeds(a)...))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	as = func(user, password, caFile string) broker.Cluster {
		cluster, err := broker.NewCluster(config.Kafka{KafkaBrokers: c.ListenAddrs(), KafkaSASLMechanism: config.SCRAMSHA512,
			KafkaSASLUsername: user, KafkaSASLPassword: password, KafkaTLSCAFile: caFile})
		if err != nil {
			t.Fatal(err)
		}
		return cluster
	}
	return c, as, ca
}

// declare makes topics as the platform does, with the super user, before any service starts.
func declare(t *testing.T, admin broker.Cluster, topics ...string) {
	t.Helper()
	if err := broker.EnsureTopics(t.Context(), admin, 1, 1, topics...); err != nil {
		t.Fatalf("the platform declares %v: %v", topics, err)
	}
}

// ownTopics returns the dead-letter and replay topics of a consuming service.
func ownTopics(a broker.Access) []string {
	out := []string{broker.ReplayTopic(a.Service)}
	for _, t := range a.Consumes {
		out = append(out, broker.DeadLetterTopic(a.Service, t))
	}
	return out
}

// TestASecuredClusterServesEachPrincipalItsGrantsAlone runs the library against a Kafka-protocol
// broker that requires SCRAM-SHA-512 over TLS and enforces ACLs, each service's principal granted
// exactly its Access.Grants, the topics declared by the platform: the producer publishes, the
// consumer consumes, dead-letters and replays; the consumer cannot publish to the producer's
// topic, and wrong credentials or an unknown certificate authority are refused.
func TestASecuredClusterServesEachPrincipalItsGrantsAlone(t *testing.T) {
	t.Parallel()
	c, as, ca := securedCluster(t, shop, ledger)
	producer, consumer := as("podium-shop", "shop-secret", ca), as("podium-ledger", "ledger-secret", ca)
	declare(t, as("admin", "admin-secret", ca), append(ownTopics(ledger), paymentsTopic)...)

	if err := broker.EnsureTopics(t.Context(), producer, 1, 1, paymentsTopic); err != nil {
		t.Fatalf("the producer finds its topic: %v", err)
	}
	replayed := make(chan broker.Message, 10)
	got := consume(t, broker.ConsumerConfig{Cluster: consumer, Group: "ledger-payments", Topics: []string{paymentsTopic}, Backoff: fast},
		func(_ context.Context, m broker.Message) error {
			if m.Headers[broker.HeaderReplayedFrom] != "" {
				replayed <- m
				return nil
			}
			if m.Key == "poison" {
				return broker.Poisonf("a payment this release cannot read")
			}
			return nil
		})
	publish(t, producer, paymentsTopic, "poison", "pay-1")
	if m := receive(t, got); m.Key != "pay-1" {
		t.Fatalf("the consumer handled %q, want pay-1", m.Key)
	}
	if dls := deadLetters(t, consumer, "ledger", paymentsTopic); len(dls) != 1 || dls[0].Key != "poison" {
		t.Fatalf("the consumer's dead letters: %+v", dls)
	}
	if out, err := runCommand(t, consumer, "ledger", paymentsTopic, "replay"); err != nil || keys(out) != "poison=true" {
		t.Fatalf("the consumer's replay: %v %s", err, keys(out))
	}
	if m := receive(t, replayed); m.Key != "poison" || m.Topic != paymentsTopic {
		t.Fatalf("the replay reached the consumer as %q on %s", m.Key, m.Topic)
	}

	forged := broker.NewWriter(consumer)
	defer forged.Close()
	err := forged.Publish(t.Context(), broker.Message{Topic: paymentsTopic, Key: "ord_1", Value: []byte(`{}`),
		Headers: map[string]string{broker.HeaderType: "podium.shop.payment.succeeded.v1", broker.HeaderID: "forged"}})
	var refused kafka.WriteErrors
	if !errors.As(err, &refused) || len(refused) != 1 || !errors.Is(refused[0], kafka.TopicAuthorizationFailed) {
		t.Fatalf("the consumer publishing to the producer's topic: %v, want TopicAuthorizationFailed", err)
	}
	// The same call succeeds with the producer's credentials and the cluster's authority only.
	ensure := func(c broker.Cluster, topic string) error { return broker.EnsureTopics(t.Context(), c, 1, 1, topic) }
	for name, cluster := range map[string]broker.Cluster{
		"a wrong password":     as("podium-shop", "guessed", ca),
		"an unknown user":      as("podium-gateway", "shop-secret", ca),
		"an unknown authority": as("podium-shop", "shop-secret", ""),
		"no credentials":       {Brokers: c.ListenAddrs()},
	} {
		if err := ensure(cluster, paymentsTopic); err == nil {
			t.Errorf("%s was let in", name)
		}
	}
	if err := ensure(producer, paymentsTopic); err != nil {
		t.Fatalf("the producer, again: %v", err)
	}
}

// TestNoPrincipalMakesATopic: where the platform has not declared a topic yet (a new
// environment, a rebuilt cluster), no service can make it, with its settings or anyone else's:
// not the consumer the producer's topic (the settings of a topic another service publishes to
// are not its to choose: a min.insync.replicas above the replication factor would fail every
// publish), not the producer its own, not a consumer its dead letters. Once the platform
// declared them, each finds its topics without the right to create them and runs.
func TestNoPrincipalMakesATopic(t *testing.T) {
	t.Parallel()
	_, as, ca := securedCluster(t, shop, ledger)
	producer, consumer := as("podium-shop", "shop-secret", ca), as("podium-ledger", "ledger-secret", ca)
	for _, try := range []struct {
		who     string
		cluster broker.Cluster
		topic   string
	}{
		{"the consumer", consumer, paymentsTopic},
		{"the producer", producer, paymentsTopic},
		{"the consumer", consumer, broker.DeadLetterTopic(ledger.Service, paymentsTopic)},
		{"the consumer", consumer, broker.ReplayTopic(ledger.Service)},
	} {
		if err := broker.EnsureTopics(t.Context(), try.cluster, 1, 1, try.topic); !errors.Is(err, kafka.TopicAuthorizationFailed) {
			t.Errorf("%s making %s: %v, want TopicAuthorizationFailed", try.who, try.topic, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	consumeErr, joined := make(chan error, 1), make(chan struct{})
	go func() {
		consumeErr <- broker.Consume(ctx, broker.ConsumerConfig{Cluster: consumer, Group: "ledger-payments", Topics: []string{paymentsTopic},
			Log: testkit.Logger(t), Joined: func() { close(joined) }}, func(context.Context, broker.Message) error { return nil })
	}()
	select {
	case err := <-consumeErr:
		if !errors.Is(err, kafka.TopicAuthorizationFailed) {
			t.Fatalf("a consumer whose dead-letter and replay topics are not declared: %v, want TopicAuthorizationFailed", err)
		}
	case <-joined:
		t.Fatal("a consumer whose dead-letter and replay topics are not declared made them and joined its group")
	}

	declare(t, as("admin", "admin-secret", ca), append(ownTopics(ledger), paymentsTopic)...)
	for who, cluster := range map[string]broker.Cluster{"the producer": producer, "the consumer": consumer} {
		if err := broker.EnsureTopics(t.Context(), cluster, 1, 1, paymentsTopic); err != nil {
			t.Errorf("%s finding the declared %s: %v", who, paymentsTopic, err)
		}
	}
	got := consume(t, broker.ConsumerConfig{Cluster: consumer, Group: "ledger-payments", Topics: []string{paymentsTopic}, Backoff: fast},
		func(context.Context, broker.Message) error { return nil })
	publish(t, producer, paymentsTopic, "pay-1")
	if m := receive(t, got); m.Key != "pay-1" {
		t.Fatalf("the consumer handled %q, want pay-1", m.Key)
	}
}

// seeds turns a's grants into kfake's ACLs of a's principal.
func seeds(a broker.Access) []kfake.ACL {
	var out []kfake.ACL
	for _, g := range a.Grants() {
		resource, err := kmsg.ParseACLResourceType(g.Resource)
		if err != nil {
			panic(err)
		}
		pattern := kmsg.ACLResourcePatternTypeLiteral
		if g.Prefix {
			pattern = kmsg.ACLResourcePatternTypePrefixed
		}
		for _, op := range g.Operations {
			operation, err := kmsg.ParseACLOperation(op)
			if err != nil {
				panic(err)
			}
			out = append(out, kfake.ACL{Resource: resource, Name: g.Name, Pattern: pattern, Operation: operation, Allow: true})
		}
	}
	return out
}

// certificates makes a certificate authority, written as PEM to a file whose path it returns,
// and a server certificate it signed for 127.0.0.1.
func certificates(t *testing.T) (caFile string, server *tls.Config) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test kafka ca"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return caFile, &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER}, PrivateKey: key}}}
}

func TestGrantsFollowFromWhatAServiceProducesAndConsumes(t *testing.T) {
	var got []string
	for _, g := range (broker.Access{Service: "shop", Produces: []string{"shop.orders.v1"}, Consumes: []string{"shop.orders.v1", "bank.payments.v1"}}).Grants() {
		name := g.Name
		if g.Prefix {
			name += "*"
		}
		got = append(got, g.Resource+":"+name+"="+strings.Join(g.Operations, ","))
	}
	want := []string{
		"group:shop-*=Read",
		"topic:bank.payments.v1=Read",
		"topic:shop.bank.payments.v1.dead-letter=Read,Write",
		"topic:shop.orders.v1=Read,Write",
		"topic:shop.replays=Read,Write",
		"topic:shop.shop.orders.v1.dead-letter=Read,Write",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("grants\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if g := (broker.Access{Service: "auth", Produces: []string{"auth.keys.v1"}}).Grants(); len(g) != 1 || g[0].Name != "auth.keys.v1" || strings.Join(g[0].Operations, ",") != "Write" {
		t.Fatalf("a producer's grants: %+v", g)
	}
}
