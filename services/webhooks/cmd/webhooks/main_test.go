package main

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config/configtest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/service/servicetest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/webhookstest"
)

func validEnv(t *testing.T) (map[string]string, *identitytest.Issuers) {
	issuers := identitytest.New(t)
	return map[string]string{
		"DATABASE_URL":          "postgres://webhooks:secret@127.0.0.1:5432/webhooks",
		"KAFKA_BROKERS":         "127.0.0.1:9092",
		"IDENTITY_TRUSTED_KEYS": issuers.Keys.String(),
		"IDENTITY_PRIVATE_KEY":  issuers.Private[identity.Webhooks],
		"SECRETS_KEY":           webhookstest.SecretsKey,
		"LOG_LEVEL":             "warn",
	}, issuers
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	vars, _ := validEnv(t)
	cfg := configtest.Load[Config](t, vars)
	if cfg.AuthURL != "http://127.0.0.1:8081" || cfg.AllowLoopbackReceivers || cfg.DeliveryWorkers != 64 || cfg.DeliveryPerEndpoint != 4 ||
		cfg.DeliveryPerOrganization != 16 ||
		cfg.MaxEndpoints != 16 || cfg.Retention != 720*time.Hour || cfg.RequestTimeout != 10*time.Second {
		t.Fatalf("config %+v", cfg)
	}
	configtest.Masked(t, cfg, "secret@", webhookstest.SecretsKey, vars["IDENTITY_PRIVATE_KEY"])
}

func TestConfigValidation(t *testing.T) {
	vars, _ := validEnv(t)
	configtest.Refuses[Config](t, vars, map[string]configtest.Case{
		"no secrets key":      {"SECRETS_KEY", "", "SECRETS_KEY"},
		"short secrets key":   {"SECRETS_KEY", "c2hvcnQ=", "SECRETS_KEY must be the base64 of 32 bytes"},
		"auth url":            {"AUTH_URL", "auth:8081", "AUTH_URL must be an http(s) URL"},
		"no per endpoint":     {"DELIVERY_PER_ENDPOINT", "0", "DELIVERY_PER_ENDPOINT must be at least 1"},
		"per endpoint":        {"DELIVERY_PER_ENDPOINT", "17", "DELIVERY_PER_ORGANIZATION at least DELIVERY_PER_ENDPOINT"},
		"pool of one org":     {"DELIVERY_WORKERS", "16", "DELIVERY_WORKERS more than DELIVERY_PER_ORGANIZATION"},
		"no endpoints":        {"MAX_ENDPOINTS", "0", "MAX_ENDPOINTS must be at least 1"},
		"clock shift":         {"CLOCK_SHIFT_FILE", "/tmp/shift", "CLOCK_SHIFT_FILE is only for local runs and fault tests"},
		"short retention":     {"RETENTION", "72h", "RETENTION must be at least 96h0m0s"},
		"request timeout":     {"REQUEST_TIMEOUT", "0s", "REQUEST_TIMEOUT must be positive"},
		"no auth key":         {"IDENTITY_TRUSTED_KEYS", "gateway:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of auth is listed"},
		"bad trusted key":     {"IDENTITY_TRUSTED_KEYS", "gateway:bm90LWEta2V5", "IDENTITY_TRUSTED_KEYS"},
		"no private key":      {"IDENTITY_PRIVATE_KEY", "", "IDENTITY_PRIVATE_KEY"},
		"bad private key":     {"IDENTITY_PRIVATE_KEY", "c2hvcnQ=", "IDENTITY_PRIVATE_KEY"},
		"loopback not a bool": {"ALLOW_LOOPBACK_RECEIVERS", "sometimes", "AllowLoopbackReceivers"},
	})
}

// TestMigrateAndServe runs the binary's subcommands in process: migrate a fresh database,
// serve against an in-process broker, create an endpoint through the organizer route, and
// shut down on cancellation.
func TestMigrateAndServe(t *testing.T) {
	vars, issuers := validEnv(t)
	addr := testkit.FreeAddr(t)
	vars["DATABASE_URL"], vars["KAFKA_BROKERS"], vars["HTTP_ADDR"] = testkit.DatabaseURL(t), strings.Join(testkit.Kafka(t), ","), addr
	testkit.SetEnv(t, vars)

	servicetest.Migrate(t, program)
	servicetest.Serve(t, program, addr)

	token := issuers.Token(t, identity.Gateway, identity.Webhooks, identity.Principal{
		OrganizerID: "org_1", KeyID: "key_1", KeyType: identity.Secret, Scopes: []string{api.ScopeWrite}})
	r := testkit.Do(t, http.MethodPost, "http://"+addr+api.ExternalBase, map[string]any{"url": "https://hooks.example.com/", "eventTypes": []string{"order.completed"}},
		map[string]string{identity.Header: token})
	if r.Status != http.StatusCreated || !strings.HasPrefix(r.Body["secret"].(string), "whsec_") {
		t.Fatalf("create through the served API: %d %s", r.Status, r.Raw)
	}
	if err := program.Run(t.Context(), []string{"frobnicate"}, &bytes.Buffer{}); !errors.Is(err, service.ErrUsage) {
		t.Fatalf("unknown command: %v", err)
	}
}
