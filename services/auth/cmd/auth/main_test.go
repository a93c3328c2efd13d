package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/config/configtest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/service/servicetest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/migrations"
)

const (
	operatorToken = "operator-token-for-main-tests-0123456789"
	cookieKey     = "console-cookie-key-for-main-tests-0123456789"
)

func validEnv(t *testing.T) (map[string]string, *identitytest.Issuers) {
	issuers := identitytest.New(t)
	return map[string]string{
		"DATABASE_URL":          "postgres://auth:secret@127.0.0.1:5432/auth",
		"KAFKA_BROKERS":         "127.0.0.1:9092,127.0.0.1:9093",
		"AUTH_OPERATOR_TOKEN":   operatorToken,
		"IDENTITY_TRUSTED_KEYS": issuers.Keys.String(),
		"IDENTITY_PRIVATE_KEY":  issuers.Private[identity.Auth],
		"CONSOLE_URL":           "https://console.podium.test",
		"CONSOLE_COOKIE_KEY":    cookieKey,
		"LOG_LEVEL":             "warn",
	}, issuers
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	vars, _ := validEnv(t)
	cfg := configtest.Load[Config](t, vars)
	if cfg.IdentityTokenTTL != time.Minute || cfg.RequestTimeout != 2*time.Second || cfg.SignInRequestsPerMinute != 20 || cfg.ConsoleDBMaxConns != 4 {
		t.Fatalf("config %+v", cfg)
	}
	if cfg.WebhooksURL != "http://127.0.0.1:8085" || cfg.WebhooksTimeout != 3*time.Second {
		t.Fatalf("webhooks config %+v", cfg.Console)
	}
	if cfg.RegistrationURL != "http://127.0.0.1:8083" || cfg.RegistrationTimeout != 5*time.Second {
		t.Fatalf("registration config %+v", cfg.Console)
	}
	configtest.Masked(t, cfg, "secret@", operatorToken, cookieKey, vars["IDENTITY_PRIVATE_KEY"])
}

func TestConfigValidation(t *testing.T) {
	vars, _ := validEnv(t)
	configtest.Refuses[Config](t, vars, map[string]configtest.Case{
		"short operator token":   {"AUTH_OPERATOR_TOKEN", "short", "AUTH_OPERATOR_TOKEN must be at least 32 characters"},
		"bad trusted key":        {"IDENTITY_TRUSTED_KEYS", "gateway:bm90LWEta2V5", "IDENTITY_TRUSTED_KEYS"},
		"no gateway key":         {"IDENTITY_TRUSTED_KEYS", "checkout:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of gateway, webhooks is listed"},
		"no webhooks key":        {"IDENTITY_TRUSTED_KEYS", "gateway:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of webhooks is listed"},
		"no private key":         {"IDENTITY_PRIVATE_KEY", "", "IDENTITY_PRIVATE_KEY"},
		"bad private key":        {"IDENTITY_PRIVATE_KEY", "bm90LWEta2V5", "IDENTITY_PRIVATE_KEY: identity: private key must be"},
		"short signed tokens":    {"IDENTITY_TOKEN_TTL", "5s", "IDENTITY_TOKEN_TTL must be at least 10s"},
		"bad webhooks url":       {"WEBHOOKS_URL", "127.0.0.1:8085", "WEBHOOKS_URL must be an http(s) URL"},
		"bad webhooks timeout":   {"WEBHOOKS_TIMEOUT", "0s", "WEBHOOKS_TIMEOUT must be positive"},
		"bad registration url":   {"REGISTRATION_URL", "registration:8080", "REGISTRATION_URL must be an http(s) URL"},
		"bad registration wait":  {"REGISTRATION_TIMEOUT", "0s", "REGISTRATION_TIMEOUT must be positive"},
		"bad request timeout":    {"REQUEST_TIMEOUT", "0s", "REQUEST_TIMEOUT must be positive"},
		"bad ttl":                {"IDENTITY_TOKEN_TTL", "-1s", "IDENTITY_TOKEN_TTL must be positive"},
		"no console url":         {"CONSOLE_URL", "", "CONSOLE_URL"},
		"plain http console":     {"CONSOLE_URL", "http://console.podium.test", "CONSOLE_URL must use https (http only for localhost)"},
		"console url path":       {"CONSOLE_URL", "https://podium.test/console", "CONSOLE_URL must be an origin"},
		"bad trusted proxy":      {"CONSOLE_TRUSTED_PROXIES", "10.0.0.0/33", "CONSOLE_TRUSTED_PROXIES"},
		"no cookie key":          {"CONSOLE_COOKIE_KEY", "", "CONSOLE_COOKIE_KEY"},
		"short cookie key":       {"CONSOLE_COOKIE_KEY", "0123456789abcdef0123456789abcde", "CONSOLE_COOKIE_KEY must be at least 32 bytes"},
		"zero sign-in limit":     {"CONSOLE_SIGNIN_PER_EMAIL", "0", "CONSOLE_SIGNIN_PER_BROWSER, CONSOLE_SIGNIN_PER_EMAIL and CONSOLE_SIGNIN_PER_ADDRESS must be at least 1"},
		"zero sign-in rate":      {"CONSOLE_SIGNIN_REQUESTS_PER_MINUTE", "0", "CONSOLE_SIGNIN_REQUESTS_PER_MINUTE and CONSOLE_DB_MAX_CONNS must be at least 1"},
		"no console connections": {"CONSOLE_DB_MAX_CONNS", "0", "CONSOLE_SIGNIN_REQUESTS_PER_MINUTE and CONSOLE_DB_MAX_CONNS must be at least 1"},
	})
}

// serveOn runs `auth serve` on the database dbURL until the test ends, which must then find it
// stopped without error, and returns its address once it is ready.
func serveOn(t *testing.T, vars map[string]string, dbURL string) string {
	t.Helper()
	addr := testkit.FreeAddr(t)
	vars["DATABASE_URL"], vars["KAFKA_BROKERS"] = dbURL, strings.Join(testkit.Kafka(t), ",")
	testkit.SetEnv(t, vars)
	t.Setenv("HTTP_ADDR", addr)
	t.Setenv("CONSOLE_ADDR", testkit.FreeAddr(t))
	t.Setenv("AUTH_ADMIN_URL", "http://"+addr)
	servicetest.Serve(t, program, addr)
	return addr
}

// TestRunMigrateServeAndOperate runs the binary's subcommands in process: migrate a fresh
// database, serve (profiles too), use the operator CLI and the internal API, see the relay
// empty the outbox, and shut down on cancellation when the test ends.
func TestRunMigrateServeAndOperate(t *testing.T) {
	vars, issuers := validEnv(t)
	dbURL := testkit.DatabaseURL(t)
	vars["PPROF_ADDR"] = testkit.FreeAddr(t)
	vars["DATABASE_URL"] = dbURL
	testkit.SetEnv(t, vars)
	servicetest.Migrate(t, program)
	addr := serveOn(t, vars, dbURL)

	var out bytes.Buffer
	if err := program.Run(t.Context(), []string{"organizer", "create", "--name", "Trail Club", "--json"}, &out); err != nil {
		t.Fatal(err)
	}
	org := between(out.String(), `"id": "`, `"`)
	out.Reset()
	if err := program.Run(t.Context(), []string{"key", "create", "--organizer", org, "--type", "secret", "--name", "b", "--scopes", "events:read"}, &out); err != nil {
		t.Fatal(err)
	}
	key := between(out.String(), "    ", "\n")
	out.Reset()
	if err := program.Run(t.Context(), []string{"audit", "list", "--organizer", org}, &out); err != nil || !strings.Contains(out.String(), " key.created ") {
		t.Fatalf("audit list: %v\n%s", err, out.String())
	}
	tok := issuers.Token(t, identity.Gateway, identity.Auth, identity.Principal{KeyID: "gateway", KeyType: identity.Service})
	if r := testkit.Do(t, http.MethodPost, "http://"+addr+"/internal/keys/verify", map[string]string{"keyHash": apikey.Hash(key)},
		map[string]string{identity.Header: tok}); r.Status != http.StatusOK {
		t.Fatalf("verify through the served API: %d %s", r.Status, r.Raw)
	}
	if r := testkit.Do(t, http.MethodGet, "http://"+vars["PPROF_ADDR"]+"/debug/pprof/", nil, nil); r.Status != http.StatusOK {
		t.Fatalf("profiles: %d", r.Status)
	}
	servicetest.WaitOutboxEmpty(t, dbURL)

	if err := program.Run(t.Context(), []string{"frobnicate"}, &bytes.Buffer{}); !errors.Is(err, service.ErrUsage) {
		t.Fatalf("unknown command: %v", err)
	}
}

// TestReadinessFollowsTheDatabase: /readyz fails, naming Postgres, while auth's database
// refuses connections, and succeeds again once it accepts them.
func TestReadinessFollowsTheDatabase(t *testing.T) {
	vars, _ := validEnv(t)
	dbURL := testkit.DatabaseURL(t, migrations.Set(), outbox.Migrations())
	addr := serveOn(t, vars, dbURL)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	db := pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize()
	admin, err := pgx.Connect(t.Context(), testkit.PostgresAdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.WithoutCancel(t.Context()))
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := admin.Exec(t.Context(), sql, args...); err != nil {
			t.Fatal(err)
		}
	}

	exec(`ALTER DATABASE ` + db + ` ALLOW_CONNECTIONS false`)
	exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, strings.TrimPrefix(u.Path, "/"))
	if msg := testkit.WaitStatus(t, "http://"+addr+"/readyz", http.StatusServiceUnavailable)["message"]; msg != "postgres is not ready" {
		t.Fatalf("readiness with the database refusing connections: %v", msg)
	}
	exec(`ALTER DATABASE ` + db + ` ALLOW_CONNECTIONS true`)
	testkit.WaitStatus(t, "http://"+addr+"/readyz", http.StatusOK)
}

func between(s, start, end string) string {
	_, after, _ := strings.Cut(s, start)
	v, _, _ := strings.Cut(after, end)
	return v
}
