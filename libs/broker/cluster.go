package broker

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl/scram"

	"github.com/podiumhq/podium/libs/config"
)

// Cluster is how a service's Kafka clients reach the brokers: their addresses and, when the
// cluster asks for them, the service's SASL/SCRAM credentials and TLS. Every writer, reader and
// admin client of this package connects through one. Cluster{Brokers: addrs} connects in clear
// without authentication (the embedded broker of make run, tests); NewCluster builds one from a
// service's configuration.
type Cluster struct {
	Brokers []string
	// transport carries the credentials and TLS of writers and admin clients, dialer those of
	// readers; both are nil for a cluster without either (kafka-go's defaults).
	transport *kafka.Transport
	dialer    *kafka.Dialer
}

// NewCluster returns the Cluster k describes. It fails when the credentials cannot be used or the
// certificate authorities cannot be read.
func NewCluster(k config.Kafka) (Cluster, error) {
	c := Cluster{Brokers: k.KafkaBrokers}
	if k.KafkaSASLMechanism == "" && !k.TLSEnabled() {
		return c, nil
	}
	c.transport = &kafka.Transport{Dial: (&net.Dialer{Timeout: 3 * time.Second}).DialContext}
	c.dialer = &kafka.Dialer{Timeout: 10 * time.Second, DualStack: true}
	switch k.KafkaSASLMechanism {
	case "":
	case config.SCRAMSHA512:
		m, err := scram.Mechanism(scram.SHA512, k.KafkaSASLUsername, k.KafkaSASLPassword)
		if err != nil {
			return Cluster{}, fmt.Errorf("broker: SASL credentials: %w", err)
		}
		c.transport.SASL, c.dialer.SASLMechanism = m, m
	default:
		return Cluster{}, fmt.Errorf("broker: unsupported SASL mechanism %q", k.KafkaSASLMechanism)
	}
	if k.TLSEnabled() {
		tc := &tls.Config{MinVersion: tls.VersionTLS12}
		if k.KafkaTLSCAFile != "" {
			pem, err := os.ReadFile(k.KafkaTLSCAFile)
			if err != nil {
				return Cluster{}, fmt.Errorf("broker: KAFKA_TLS_CA_FILE: %w", err)
			}
			tc.RootCAs = x509.NewCertPool()
			if !tc.RootCAs.AppendCertsFromPEM(pem) {
				return Cluster{}, errors.New("broker: KAFKA_TLS_CA_FILE holds no PEM certificate")
			}
		}
		c.transport.TLS, c.dialer.TLS = tc, tc
	}
	return c, nil
}

// client returns an admin client of the cluster.
func (c Cluster) client() *kafka.Client {
	kc := &kafka.Client{Addr: kafka.TCP(c.Brokers...), Timeout: 10 * time.Second}
	if c.transport != nil {
		kc.Transport = c.transport
	}
	return kc
}

// freshClient returns an admin client of the cluster that reads the metadata of topics from the
// brokers, and the function that closes its connections. kafka-go's clients share a transport
// that answers metadata requests from a cache it refreshes every few seconds, which can still
// miss a topic made since.
func (c Cluster) freshClient(topics []string) (*kafka.Client, func()) {
	t := &kafka.Transport{MetadataTopics: topics}
	if c.transport != nil {
		t.Dial, t.SASL, t.TLS = c.transport.Dial, c.transport.SASL, c.transport.TLS
	}
	return &kafka.Client{Addr: kafka.TCP(c.Brokers...), Timeout: 10 * time.Second, Transport: t}, t.CloseIdleConnections
}
