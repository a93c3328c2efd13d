package config

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// Kafka holds the bootstrap brokers of a service's Kafka clients. It is also the whole
// configuration of the services' dead-letters command.
type Kafka struct {
	// KafkaBrokers are the bootstrap brokers, host:port, comma-separated.
	KafkaBrokers []string `env:"KAFKA_BROKERS,notEmpty" envSeparator:","`
}

// Validate reports every broker address that is not host:port.
func (k Kafka) Validate() error {
	var errs []error
	for _, b := range k.KafkaBrokers {
		if _, _, err := net.SplitHostPort(b); err != nil || strings.TrimSpace(b) != b {
			errs = append(errs, fmt.Errorf("KAFKA_BROKERS entry %q must be host:port without spaces", b))
		}
	}
	return errors.Join(errs...)
}
