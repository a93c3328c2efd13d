package main

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config/configtest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/service/servicetest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestMain(m *testing.M) { os.Exit(checkouttest.Main(m)) }

func validEnv(t *testing.T) (map[string]string, *identitytest.Issuers) {
	issuers := identitytest.New(t)
	return map[string]string{
		"DATABASE_URL":          "postgres://checkout:secret@127.0.0.1:5432/checkout",
		"KAFKA_BROKERS":         "127.0.0.1:9092",
		"IDENTITY_TRUSTED_KEYS": issuers.Keys.String(),
		"IDENTITY_PRIVATE_KEY":  issuers.Private[identity.Checkout],
		"STRIPE_SECRET_KEY":     "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
		"STRIPE_WEBHOOK_SECRET": checkouttest.WebhookSecret,
		"LOG_LEVEL":             "warn",
	}, issuers
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	vars, _ := validEnv(t)
	cfg := configtest.Load[Config](t, vars)
	if cfg.CatalogURL != "http://127.0.0.1:8082" || cfg.RegistrationURL != "http://127.0.0.1:8083" || cfg.HoldTTL != 10*time.Minute ||
		cfg.IdempotencyRetention != 48*time.Hour || cfg.StripeAPIBase != "" || cfg.RequestTimeout != 14*time.Second ||
		cfg.ReconcileInterval != 2*time.Minute || cfg.ReconcileLookback != 48*time.Hour || cfg.WebhookUnknownRetryWindow != 6*time.Hour {
		t.Fatalf("config %+v", cfg)
	}
	if address, key := cfg.Backoffs(); address != domain.DefaultAddressBackoff || key != domain.DefaultKeyBackoff {
		t.Fatalf("promocode backoffs %+v and %+v, want the defaults", address, key)
	}
	configtest.Masked(t, cfg, "secret@", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", checkouttest.WebhookSecret, vars["IDENTITY_PRIVATE_KEY"])
}

func TestConfigValidation(t *testing.T) {
	vars, _ := validEnv(t)
	configtest.Refuses[Config](t, vars, map[string]configtest.Case{
		"no stripe key":      {"STRIPE_SECRET_KEY", "", "STRIPE_SECRET_KEY"},
		"publishable stripe": {"STRIPE_SECRET_KEY", "pk_test_x", "STRIPE_SECRET_KEY must be a Stripe secret or restricted key"},
		"webhook secret":     {"STRIPE_WEBHOOK_SECRET", "secret", "STRIPE_WEBHOOK_SECRET must be a webhook signing secret"},
		"api base":           {"STRIPE_API_BASE", "localhost:12111", "STRIPE_API_BASE must be an http(s) URL"},
		"catalog url":        {"CATALOG_URL", "catalog", "CATALOG_URL must be an http(s) URL"},
		"short hold":         {"HOLD_TTL", "4m", "HOLD_TTL must be from 5m0s to 24h4m0s"},
		"short retention":    {"IDEMPOTENCY_RETENTION", "1h", "IDEMPOTENCY_RETENTION must be at least 24h"},
		"no free failures":   {"PROMOCODE_FAILURES_PER_ADDRESS", "0", "PROMOCODE_FAILURES_PER_ADDRESS and PROMOCODE_FAILURES_PER_KEY must be at least 1"},
		"short window":       {"PROMOCODE_FAILURE_WINDOW", "10s", "PROMOCODE_FAILURE_WINDOW at least 1m"},
		"bad trusted key":    {"IDENTITY_TRUSTED_KEYS", "gateway:bm90LWEta2V5", "IDENTITY_TRUSTED_KEYS"},
		"no gateway key":     {"IDENTITY_TRUSTED_KEYS", "checkout:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of gateway is listed"},
		"no private key":     {"IDENTITY_PRIVATE_KEY", "", "IDENTITY_PRIVATE_KEY"},
		"bad private key":    {"IDENTITY_PRIVATE_KEY", "c2hvcnQ=", "IDENTITY_PRIVATE_KEY"},
		"request timeout":    {"REQUEST_TIMEOUT", "0s", "REQUEST_TIMEOUT must be positive"},
		"reconcile interval": {"RECONCILE_INTERVAL", "500ms", "RECONCILE_INTERVAL must be at least 1s"},
		"short lookback":     {"RECONCILE_LOOKBACK", "24h", "RECONCILE_LOOKBACK must be at least 25h"},
		"long retry window":  {"WEBHOOK_UNKNOWN_RETRY_WINDOW", "96h", "WEBHOOK_UNKNOWN_RETRY_WINDOW must be from 1m to 72h"},
		"test key alone":     {"STRIPE_TEST_SECRET_KEY", "sk_test_x", "STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET are set together"},
	})
	vars["STRIPE_TEST_SECRET_KEY"], vars["STRIPE_TEST_WEBHOOK_SECRET"] = "rk_test_x", checkouttest.TestWebhookSecret
	configtest.Masked(t, configtest.Load[Config](t, vars), "rk_test_x", checkouttest.TestWebhookSecret)
	configtest.Refuses[Config](t, vars, map[string]configtest.Case{
		"live test key":       {"STRIPE_TEST_SECRET_KEY", "sk_live_x", "STRIPE_TEST_SECRET_KEY must be a Stripe test-mode key"},
		"test webhook secret": {"STRIPE_TEST_WEBHOOK_SECRET", "secret", "STRIPE_TEST_WEBHOOK_SECRET must be a webhook signing secret"},
		"one secret for both": {"STRIPE_TEST_WEBHOOK_SECRET", checkouttest.WebhookSecret, "STRIPE_TEST_WEBHOOK_SECRET must differ from STRIPE_WEBHOOK_SECRET"},
	})
}

// TestMigrateAndServe runs the binary's subcommands in process: migrate a fresh database,
// serve against the peers' doubles and stripe-mock, open a session and pay it with Stripe's
// signed webhook, and shut down on cancellation.
func TestMigrateAndServe(t *testing.T) {
	vars, issuers := validEnv(t)
	dbURL := testkit.DatabaseURL(t)
	addr := testkit.FreeAddr(t)
	catalog := checkouttest.NewCatalog(t, issuers.Verifier(identity.Catalog))
	catalog.Put(checkouttest.Event())
	registration := checkouttest.NewRegistration(t, issuers.Verifier(identity.Registration))
	vars["DATABASE_URL"], vars["KAFKA_BROKERS"] = dbURL, strings.Join(testkit.Kafka(t), ",")
	vars["CATALOG_URL"], vars["REGISTRATION_URL"], vars["STRIPE_API_BASE"] = catalog.URL, registration.URL, checkouttest.StripeMockURL(t)
	vars["HTTP_ADDR"] = addr
	testkit.SetEnv(t, vars)
	t.Setenv("HTTP_ADDR", addr)

	servicetest.Migrate(t, program)
	servicetest.Serve(t, program, addr)

	env := &checkouttest.Env{URL: "http://" + addr, Issuers: issuers}
	r := env.Browser(t, "session", checkouttest.Purchase(), checkouttest.KeyID)
	if r.Status != http.StatusCreated {
		t.Fatalf("session through the served API: %d %s", r.Status, r.Raw)
	}
	paid := checkouttest.StripeSession{SessionID: r.Body["sessionId"].(string), OrderID: r.Body["orderId"].(string), Currency: "EUR", Amount: 5875}
	if w := env.SignedWebhook(t, checkouttest.StripeEvent(t, "checkout.session.completed", paid, true, time.Now()), time.Now()); w.Status != http.StatusOK || w.Body["result"] != "applied" {
		t.Fatalf("webhook through the served API: %d %s", w.Status, w.Raw)
	}

	if err := program.Run(t.Context(), []string{"frobnicate"}, &bytes.Buffer{}); !errors.Is(err, service.ErrUsage) {
		t.Fatalf("unknown command: %v", err)
	}
}
