package config_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/config"
)

func TestKafkaValidatesEveryProblem(t *testing.T) {
	t.Setenv("KAFKA_BROKERS", "kafka:9092, bad")
	t.Setenv("KAFKA_TOPIC_PARTITIONS", "0")
	t.Setenv("KAFKA_REPLICATION_FACTOR", "0")
	_, err := config.Load[config.Kafka]()
	for _, want := range []string{`bad" must be host:port`, "KAFKA_TOPIC_PARTITIONS must be at least 1", "KAFKA_REPLICATION_FACTOR must be at least 1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load: %v; want it to say %q", err, want)
		}
	}
}

func TestKafkaTopicsDefault(t *testing.T) {
	t.Setenv("KAFKA_BROKERS", "kafka:9092")
	k, err := config.Load[config.Kafka]()
	if err != nil {
		t.Fatal(err)
	}
	if k.KafkaTopicPartitions != 3 || k.KafkaReplicationFactor != 1 {
		t.Fatalf("defaults %d partitions, replication %d; want 3, 1", k.KafkaTopicPartitions, k.KafkaReplicationFactor)
	}
}

func TestKafkaSecuritySettingsAreCheckedAtStart(t *testing.T) {
	for name, c := range map[string]struct {
		env  map[string]string
		want string
	}{
		"mechanism without credentials": {map[string]string{"KAFKA_SASL_MECHANISM": "SCRAM-SHA-512"},
			"KAFKA_SASL_MECHANISM needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD"},
		"mechanism without a password": {map[string]string{"KAFKA_SASL_MECHANISM": "SCRAM-SHA-512", "KAFKA_SASL_USERNAME": "podium-checkout"},
			"KAFKA_SASL_MECHANISM needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD"},
		"another mechanism": {map[string]string{"KAFKA_SASL_MECHANISM": "PLAIN", "KAFKA_SASL_USERNAME": "u", "KAFKA_SASL_PASSWORD": "p"},
			`KAFKA_SASL_MECHANISM "PLAIN" must be SCRAM-SHA-512 or empty`},
		"credentials without a mechanism": {map[string]string{"KAFKA_SASL_USERNAME": "podium-checkout", "KAFKA_SASL_PASSWORD": "p"},
			"KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM"},
		"authorities without TLS": {map[string]string{"KAFKA_TLS_CA_FILE": "/etc/kafka/ca.crt"},
			"KAFKA_TLS_CA_FILE needs TLS"},
		"authorities with TLS turned off": {map[string]string{"KAFKA_SASL_MECHANISM": "SCRAM-SHA-512", "KAFKA_SASL_USERNAME": "u", "KAFKA_SASL_PASSWORD": "p",
			"KAFKA_TLS": "false", "KAFKA_TLS_CA_FILE": "/etc/kafka/ca.crt"}, "KAFKA_TLS_CA_FILE needs TLS"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("KAFKA_BROKERS", "kafka:9092")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			if _, err := config.Load[config.Kafka](); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Load: %v; want it to say %q", err, c.want)
			}
		})
	}
}

func TestKafkaTLSFollowsSASLUnlessSet(t *testing.T) {
	for name, c := range map[string]struct {
		env  map[string]string
		want bool
	}{
		"no SASL":                   {map[string]string{}, false},
		"SASL":                      {map[string]string{"KAFKA_SASL_MECHANISM": "SCRAM-SHA-512", "KAFKA_SASL_USERNAME": "u", "KAFKA_SASL_PASSWORD": "p"}, true},
		"SASL on a private network": {map[string]string{"KAFKA_SASL_MECHANISM": "SCRAM-SHA-512", "KAFKA_SASL_USERNAME": "u", "KAFKA_SASL_PASSWORD": "p", "KAFKA_TLS": "false"}, false},
		"TLS without SASL":          {map[string]string{"KAFKA_TLS": "true", "KAFKA_TLS_CA_FILE": "/etc/kafka/ca.crt"}, true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("KAFKA_BROKERS", "kafka:9092")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			k, err := config.Load[config.Kafka]()
			if err != nil {
				t.Fatal(err)
			}
			if k.TLSEnabled() != c.want {
				t.Fatalf("TLSEnabled() = %v, want %v", k.TLSEnabled(), c.want)
			}
		})
	}
}

func TestKafkaPasswordIsMaskedInTheLoggedConfig(t *testing.T) {
	t.Setenv("KAFKA_BROKERS", "kafka:9092")
	t.Setenv("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512")
	t.Setenv("KAFKA_SASL_USERNAME", "podium-checkout")
	t.Setenv("KAFKA_SASL_PASSWORD", "s3cret-scram-password")
	t.Setenv("KAFKA_TLS", "true")
	k, err := config.Load[config.Kafka]()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "config", config.LogValue(k))
	out := b.String()
	for _, want := range []string{"config.KAFKA_SASL_PASSWORD=*****", "config.KAFKA_SASL_USERNAME=podium-checkout", "config.KAFKA_TLS=true"} {
		if !strings.Contains(out, want) {
			t.Errorf("logged config %s does not hold %s", out, want)
		}
	}
	if strings.Contains(out, "s3cret") {
		t.Fatalf("the password is in the logged config: %s", out)
	}
}
