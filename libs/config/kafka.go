package config

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// SCRAMSHA512 is the SASL mechanism the services authenticate to Kafka with.
const SCRAMSHA512 = "SCRAM-SHA-512"

// Kafka holds how a service's Kafka clients reach the brokers (addresses, SASL credentials, TLS)
// and the shape of the topics it creates when they do not exist yet. It is also the whole
// configuration of the services' dead-letters command.
type Kafka struct {
	// KafkaBrokers are the bootstrap brokers, host:port, comma-separated.
	KafkaBrokers []string `env:"KAFKA_BROKERS,notEmpty" envSeparator:","`
	// KafkaTopicPartitions and KafkaReplicationFactor shape the topics the service creates.
	KafkaTopicPartitions   int `env:"KAFKA_TOPIC_PARTITIONS" envDefault:"3"`
	KafkaReplicationFactor int `env:"KAFKA_REPLICATION_FACTOR" envDefault:"1"`
	// KafkaSASLMechanism authenticates every connection as the service's own principal:
	// SCRAM-SHA-512, or empty for none (the embedded broker of make run and the tests).
	KafkaSASLMechanism string `env:"KAFKA_SASL_MECHANISM"`
	// KafkaSASLUsername and KafkaSASLPassword are the principal's SCRAM credentials.
	KafkaSASLUsername string `env:"KAFKA_SASL_USERNAME"`
	KafkaSASLPassword string `env:"KAFKA_SASL_PASSWORD" secret:"true"`
	// KafkaTLS encrypts every connection and verifies the brokers' certificates. Unset, it
	// follows KAFKA_SASL_MECHANISM: credentials and events cross the network in clear only where
	// KAFKA_TLS=false says the network is private (the Compose stack).
	KafkaTLS *bool `env:"KAFKA_TLS"`
	// KafkaTLSCAFile is a PEM file of the certificate authorities the brokers' certificates must
	// chain to; empty trusts the system's.
	KafkaTLSCAFile string `env:"KAFKA_TLS_CA_FILE"`
}

// TLSEnabled reports whether connections use TLS: KAFKA_TLS when set, else whether SASL is.
func (k Kafka) TLSEnabled() bool {
	if k.KafkaTLS != nil {
		return *k.KafkaTLS
	}
	return k.KafkaSASLMechanism != ""
}

// Validate reports every broker address that is not host:port, topic settings below 1, and
// security settings that would not be used or could not authenticate.
func (k Kafka) Validate() error {
	var errs []error
	for _, b := range k.KafkaBrokers {
		if _, _, err := net.SplitHostPort(b); err != nil || strings.TrimSpace(b) != b {
			errs = append(errs, fmt.Errorf("KAFKA_BROKERS entry %q must be host:port without spaces", b))
		}
	}
	if k.KafkaTopicPartitions < 1 {
		errs = append(errs, errors.New("KAFKA_TOPIC_PARTITIONS must be at least 1"))
	}
	if k.KafkaReplicationFactor < 1 {
		errs = append(errs, errors.New("KAFKA_REPLICATION_FACTOR must be at least 1"))
	}
	switch {
	case k.KafkaSASLMechanism == SCRAMSHA512:
		if k.KafkaSASLUsername == "" || k.KafkaSASLPassword == "" {
			errs = append(errs, errors.New("KAFKA_SASL_MECHANISM needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD"))
		}
	case k.KafkaSASLMechanism != "":
		errs = append(errs, fmt.Errorf("KAFKA_SASL_MECHANISM %q must be %s or empty", k.KafkaSASLMechanism, SCRAMSHA512))
	case k.KafkaSASLUsername != "" || k.KafkaSASLPassword != "":
		errs = append(errs, errors.New("KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM"))
	}
	if k.KafkaTLSCAFile != "" && !k.TLSEnabled() {
		errs = append(errs, errors.New("KAFKA_TLS_CA_FILE needs TLS (KAFKA_TLS, or SASL with KAFKA_TLS unset)"))
	}
	return errors.Join(errs...)
}
