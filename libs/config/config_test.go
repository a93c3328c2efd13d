package config_test

import (
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
