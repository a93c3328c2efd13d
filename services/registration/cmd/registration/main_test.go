package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config/configtest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func validEnv(t *testing.T) (map[string]string, *identitytest.Issuers) {
	issuers := identitytest.New(t)
	return map[string]string{
		"DATABASE_URL":          "postgres://registration:secret@127.0.0.1:5432/registration",
		"KAFKA_BROKERS":         "127.0.0.1:9092",
		"IDENTITY_TRUSTED_KEYS": issuers.Keys.String(),
		"IDENTITY_PRIVATE_KEY":  issuers.Private[identity.Registration],
		"SMTP_PASSWORD":         "smtp-secret-value",
		"SMTP_USERNAME":         "mailer",
		"LOG_LEVEL":             "warn",
	}, issuers
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	vars, _ := validEnv(t)
	cfg := configtest.Load[Config](t, vars)
	if cfg.CatalogURL != "http://127.0.0.1:8082" || cfg.CatalogCacheTTL != 2*time.Second || cfg.HoldSweepInterval != 5*time.Second ||
		cfg.IdentityTokenTTL != time.Minute || cfg.AppOptions() != app.DefaultOptions || cfg.RequestTimeout != 10*time.Second {
		t.Fatalf("config %+v", cfg)
	}
	configtest.Masked(t, cfg, "secret@", "smtp-secret-value", vars["IDENTITY_PRIVATE_KEY"])
}

func TestConfigTurnsACapOff(t *testing.T) {
	vars, _ := validEnv(t)
	vars["HOLD_MAX_PLACES_PER_ADDRESS"], vars["RECEIPT_COOLDOWN"] = "0", "0s"
	cfg := configtest.Load[Config](t, vars)
	if o := cfg.AppOptions(); o.HoldLimits.PerAddress != 0 || o.HoldLimits.PerEmail != 22 || o.ReceiptCooldown != 0 {
		t.Fatalf("options %+v: the address cap and the cooldown must be off, the e-mail cap 22", o)
	}
}

func TestConfigSetsTheWaitlistLimits(t *testing.T) {
	vars, _ := validEnv(t)
	if o := configtest.Load[Config](t, vars).AppOptions(); o.WaitlistLimits != domain.DefaultWaitlistLimits {
		t.Fatalf("default waitlist limits %+v, want %+v", o.WaitlistLimits, domain.DefaultWaitlistLimits)
	}
	vars["WAITLIST_MAX_ACTIVE_PER_EMAIL"], vars["WAITLIST_MAX_JOINS_PER_EMAIL_HOUR"] = "0", "12"
	if o := configtest.Load[Config](t, vars).AppOptions(); o.WaitlistLimits != (domain.WaitlistLimits{PerHour: 12}) {
		t.Fatalf("waitlist limits %+v: the active cap must be off, 12 joins an hour", o.WaitlistLimits)
	}
}

func TestConfigValidation(t *testing.T) {
	vars, _ := validEnv(t)
	configtest.Refuses[Config](t, vars, map[string]configtest.Case{
		"bad trusted key":  {"IDENTITY_TRUSTED_KEYS", "gateway:bm90LWEta2V5", "IDENTITY_TRUSTED_KEYS"},
		"no checkout key":  {"IDENTITY_TRUSTED_KEYS", "gateway:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of checkout is listed"},
		"bad private key":  {"IDENTITY_PRIVATE_KEY", "c2hvcnQ=", "IDENTITY_PRIVATE_KEY"},
		"no private key":   {"IDENTITY_PRIVATE_KEY", "", "IDENTITY_PRIVATE_KEY"},
		"short token ttl":  {"IDENTITY_TOKEN_TTL", "5s", "IDENTITY_TOKEN_TTL must be at least 10s"},
		"request timeout":  {"REQUEST_TIMEOUT", "0s", "REQUEST_TIMEOUT must be positive"},
		"catalog url":      {"CATALOG_URL", "catalog:8082", "CATALOG_URL must be an http(s) URL"},
		"negative cache":   {"CATALOG_CACHE_TTL", "-1s", "CATALOG_CACHE_TTL must not be negative"},
		"sweep interval":   {"HOLD_SWEEP_INTERVAL", "0s", "HOLD_SWEEP_INTERVAL must be positive"},
		"address cap":      {"HOLD_MAX_PLACES_PER_ADDRESS", "10", "HOLD_MAX_PLACES_PER_ADDRESS must be 0 (no cap) or at least 11"},
		"e-mail cap":       {"HOLD_MAX_PLACES_PER_EMAIL", "-1", "HOLD_MAX_PLACES_PER_EMAIL must be 0 (no cap) or at least 11"},
		"receipt cooldown": {"RECEIPT_COOLDOWN", "-1m", "RECEIPT_COOLDOWN must not be negative"},
		"waitlist active":  {"WAITLIST_MAX_ACTIVE_PER_EMAIL", "-1", "WAITLIST_MAX_ACTIVE_PER_EMAIL and WAITLIST_MAX_JOINS_PER_EMAIL_HOUR must not be negative"},
		"waitlist hourly":  {"WAITLIST_MAX_JOINS_PER_EMAIL_HOUR", "-1", "WAITLIST_MAX_JOINS_PER_EMAIL_HOUR must not be negative"},
	})
}

// TestRunMigrateAndServe runs the binary's subcommands in process: migrate a fresh database
// twice, serve until ready, answer a search through the served API, and stop on cancellation.
func TestRunMigrateAndServe(t *testing.T) {
	search, _ := serveForSearch(t, map[string]string{"PPROF_ADDR": testkit.FreeAddr(t)})
	if status, _, b := search(); status != http.StatusCreated {
		t.Fatalf("search through the served API: %d %+v", status, b)
	}
}
