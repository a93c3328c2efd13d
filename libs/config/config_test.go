package config_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
)

type sample struct {
	config.Base
	DatabaseURL string        `env:"DATABASE_URL,notEmpty" secret:"true"`
	Token       string        `env:"OPERATOR_TOKEN" secret:"true"`
	Window      time.Duration `env:"WINDOW" envDefault:"2s"`
}

func TestLoadAppliesDefaultsAndRequiresFields(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	if _, err := config.Load[sample](); err == nil {
		t.Fatal("Load without DATABASE_URL succeeded; want an error naming it")
	}

	t.Setenv("DATABASE_URL", "postgres://u:p@h/db")
	cfg, err := config.Load[sample]()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Window != 2*time.Second || cfg.HTTPAddr != ":8080" || cfg.LogLevel != "info" {
		t.Fatalf("defaults not applied: %+v", cfg)
	}
}

func TestLoadRunsValidate(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://h/db")
	t.Setenv("LOG_LEVEL", "loud")
	_, err := config.Load[sample]()
	if err == nil || !strings.Contains(err.Error(), "LOG_LEVEL") {
		t.Fatalf("Load with a bad LOG_LEVEL: got %v, want an error naming LOG_LEVEL", err)
	}
}

func TestLogValueMasksSecrets(t *testing.T) {
	cfg := sample{DatabaseURL: "postgres://u:secret@h/db", Window: time.Second}
	cfg.HTTPAddr = ":9000"
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "config", config.LogValue(cfg))
	out := b.String()
	if strings.Contains(out, "secret@") {
		t.Fatalf("secret leaked into log line: %s", out)
	}
	for _, want := range []string{"DATABASE_URL=*****", "OPERATOR_TOKEN=\"\"", "HTTP_ADDR=:9000", "WINDOW=1s"} {
		if !strings.Contains(out, want) {
			t.Errorf("log line %q lacks %q", out, want)
		}
	}
}

type withPostgres struct {
	config.Base
	config.Postgres
}

func (w withPostgres) Validate() error { return errors.Join(w.Base.Validate(), w.Postgres.Validate()) }

func TestPostgresDefaultsAndValidation(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://h/db")
	cfg, err := config.Load[withPostgres]()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DBStatementTimeout != 5*time.Second || cfg.DBLockTimeout != 2*time.Second || cfg.DBIdleInTransactionTimeout != 30*time.Second {
		t.Fatalf("defaults %+v", cfg.Postgres)
	}
	for name, c := range map[string]struct{ key, value, want string }{
		"negative":             {"DB_IDLE_IN_TRANSACTION_TIMEOUT", "-1s", "must not be negative"},
		"negative pool":        {"DB_MAX_CONNS", "-1", "DB_MAX_CONNS must not be negative"},
		"lock above statement": {"DB_LOCK_TIMEOUT", "6s", "DB_LOCK_TIMEOUT must not exceed DB_STATEMENT_TIMEOUT"},
		"not a duration":       {"DB_STATEMENT_TIMEOUT", "soon", "DBStatementTimeout"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(c.key, c.value)
			if _, err := config.Load[withPostgres](); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v does not mention %q", err, c.want)
			}
		})
	}
	t.Setenv("DB_STATEMENT_TIMEOUT", "0s")
	t.Setenv("DB_LOCK_TIMEOUT", "3s")
	if _, err := config.Load[withPostgres](); err != nil {
		t.Fatalf("a lock timeout without a statement timeout: %v", err)
	}
}

func TestKafkaNeedsHostPortBrokers(t *testing.T) {
	t.Setenv("KAFKA_BROKERS", "a:9092,b:9092")
	cfg, err := config.Load[config.Kafka]()
	if err != nil || len(cfg.KafkaBrokers) != 2 || cfg.KafkaBrokers[1] != "b:9092" {
		t.Fatalf("Load: %+v, %v", cfg, err)
	}
	for _, bad := range []string{"", "a:9092, b:9092", "kafka"} {
		t.Setenv("KAFKA_BROKERS", bad)
		if _, err := config.Load[config.Kafka](); err == nil || !strings.Contains(err.Error(), "KAFKA_BROKERS") {
			t.Errorf("KAFKA_BROKERS=%q: %v, want an error naming it", bad, err)
		}
	}
}
