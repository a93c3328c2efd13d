package config

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// Kafka holds the bootstrap brokers of a service's Kafka clients and the shape of the topics it
// creates when they do not exist yet. It is also the whole configuration of the services'
// dead-letters command.
type Kafka struct {
	// KafkaBrokers are the bootstrap brokers, host:port, comma-separated.
	KafkaBrokers []string `env:"KAFKA_BROKERS,notEmpty" envSeparator:","`
	// KafkaTopicPartitions and KafkaReplicationFactor shape the topics the service creates.
	KafkaTopicPartitions   int `env:"KAFKA_TOPIC_PARTITIONS" envDefault:"3"`
	KafkaReplicationFactor int `env:"KAFKA_REPLICATION_FACTOR" envDefault:"1"`
}

// Validate reports every broker address that is not host:port and topic settings below 1.
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
	return errors.Join(errs...)
}
