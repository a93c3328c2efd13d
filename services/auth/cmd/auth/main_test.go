package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/cli"
)

const operatorToken = "operator-token-for-main-tests-0123456789"

// setEnv sets a complete environment and unsets HTTP_ADDR, restoring both after the test.
func setEnv(t *testing.T, vars map[string]string) {
	t.Setenv("HTTP_ADDR", "")
	if err := os.Unsetenv("HTTP_ADDR"); err != nil {
		t.Fatal(err)
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
}

func validEnv(t *testing.T) (map[string]string, *identitytest.Issuers) {
	issuers := identitytest.New(t)
	return map[string]string{
		"DATABASE_URL":          "postgres://auth:secret@127.0.0.1:5432/auth",
		"KAFKA_BROKERS":         "127.0.0.1:9092,127.0.0.1:9093",
		"AUTH_OPERATOR_TOKEN":   operatorToken,
		"IDENTITY_TRUSTED_KEYS": issuers.Keys.String(),
		"LOG_LEVEL":             "warn",
	}, issuers
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	vars, _ := validEnv(t)
	setEnv(t, vars)
	cfg, err := config.Load[Config]()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != ":8080" || cfg.DBMaxConns != 0 || cfg.KafkaTopicPartitions != 3 || cfg.KafkaReplicationFactor != 1 ||
		cfg.IdentityTokenTTL != time.Minute || len(cfg.KafkaBrokers) != 2 || cfg.KafkaBrokers[1] != "127.0.0.1:9093" ||
		cfg.RequestTimeout != 2*time.Second || cfg.DBStatementTimeout != 5*time.Second || cfg.DBLockTimeout != 2*time.Second {
		t.Fatalf("config %+v", cfg)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("start", "config", config.LogValue(cfg))
	if strings.Contains(buf.String(), "secret@") || strings.Contains(buf.String(), operatorToken) || !strings.Contains(buf.String(), `"HTTP_ADDR":":8080"`) {
		t.Fatalf("logged config leaks a secret or misses a field: %s", buf.String())
	}
}

func TestConfigValidation(t *testing.T) {
	for name, c := range map[string]struct{ key, value, want string }{
		"short operator token": {"AUTH_OPERATOR_TOKEN", "short", "AUTH_OPERATOR_TOKEN must be at least 32 characters"},
		"bad trusted key":      {"IDENTITY_TRUSTED_KEYS", "gateway:bm90LWEta2V5", "IDENTITY_TRUSTED_KEYS"},
		"no gateway key":       {"IDENTITY_TRUSTED_KEYS", "checkout:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of gateway is listed"},
		"bad request timeout":  {"REQUEST_TIMEOUT", "0s", "REQUEST_TIMEOUT must be positive"},
		"lock over statement":  {"DB_LOCK_TIMEOUT", "1m", "DB_LOCK_TIMEOUT must not exceed DB_STATEMENT_TIMEOUT"},
		"no database":          {"DATABASE_URL", "", "DATABASE_URL"},
		"no brokers":           {"KAFKA_BROKERS", "", "KAFKA_BROKERS"},
		"broker with a space":  {"KAFKA_BROKERS", "a:9092, b:9092", `KAFKA_BROKERS entry " b:9092" must be host:port without spaces`},
		"zero partitions":      {"KAFKA_TOPIC_PARTITIONS", "0", "KAFKA_TOPIC_PARTITIONS must be at least 1"},
		"bad ttl":              {"IDENTITY_TOKEN_TTL", "-1s", "IDENTITY_TOKEN_TTL must be positive"},
	} {
		t.Run(name, func(t *testing.T) {
			vars, _ := validEnv(t)
			vars[c.key] = c.value
			setEnv(t, vars)
			if _, err := config.Load[Config](); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v does not mention %q", err, c.want)
			}
		})
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestRunMigrateServeAndOperate runs the binary's subcommands in process: migrate a fresh
// database, serve, use the operator CLI and the internal API, see the relay empty the
// outbox, and shut down on cancellation.
func TestRunMigrateServeAndOperate(t *testing.T) {
	vars, issuers := validEnv(t)
	dbURL := testkit.DatabaseURL(t)
	addr := freeAddr(t)
	vars["DATABASE_URL"], vars["KAFKA_BROKERS"] = dbURL, strings.Join(testkit.Kafka(t), ",")
	vars["PPROF_ADDR"] = freeAddr(t)
	setEnv(t, vars)
	t.Setenv("HTTP_ADDR", addr)
	t.Setenv("AUTH_ADMIN_URL", "http://"+addr)

	for range 2 { // a second run finds nothing to apply
		if err := run(context.Background(), []string{"migrate"}, &bytes.Buffer{}); err != nil {
			t.Fatalf("migrate: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, &bytes.Buffer{}) }()
	waitReady(t, "http://"+addr+"/readyz", done)

	var out bytes.Buffer
	if err := run(context.Background(), []string{"organizer", "create", "--name", "Trail Club", "--json"}, &out); err != nil {
		t.Fatal(err)
	}
	org := between(out.String(), `"id": "`, `"`)
	out.Reset()
	if err := run(context.Background(), []string{"key", "create", "--organizer", org, "--type", "secret", "--name", "b", "--scopes", "events:read"}, &out); err != nil {
		t.Fatal(err)
	}
	key := between(out.String(), "    ", "\n")
	tok := issuers.Token(t, identity.Gateway, identity.Auth, identity.Principal{KeyID: "gateway", KeyType: identity.Service})
	body := fmt.Sprintf(`{"keyHash":%q}`, apikey.Hash(key))
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://"+addr+"/internal/keys/verify", strings.NewReader(body))
	req.Header.Set(identity.Header, tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("verify through the served API: %v %v", resp, err)
	}
	resp.Body.Close()
	preq, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://"+vars["PPROF_ADDR"]+"/debug/pprof/", nil)
	if resp, err := http.DefaultClient.Do(preq); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("profiles: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	waitOutboxEmpty(t, dbURL)

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after cancellation", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s of cancellation")
	}
	if err := run(context.Background(), []string{"frobnicate"}, &bytes.Buffer{}); !errors.Is(err, cli.ErrUsage) {
		t.Fatalf("unknown command: %v", err)
	}
}

func waitReady(t *testing.T, url string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v", err)
		default:
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("service not ready within 20s")
}

// waitOutboxEmpty waits until the relay has published every outbox message.
func waitOutboxEmpty(t *testing.T, url string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM outbox`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the relay did not empty the outbox within 20s")
}

func between(s, start, end string) string {
	_, after, _ := strings.Cut(s, start)
	v, _, _ := strings.Cut(after, end)
	return v
}
