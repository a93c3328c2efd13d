package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/podiumhq/podium/libs/config/configtest"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/service/servicetest"
	"github.com/podiumhq/podium/libs/testkit"
)

const operatorToken = "operator-token-for-main-tests-0123456789"

func validEnv(t *testing.T) (map[string]string, *identitytest.Issuers) {
	issuers := identitytest.New(t)
	return map[string]string{
		"DATABASE_URL":           "postgres://catalog:secret@127.0.0.1:5432/catalog",
		"KAFKA_BROKERS":          "127.0.0.1:9092,127.0.0.1:9093",
		"CATALOG_OPERATOR_TOKEN": operatorToken,
		"IDENTITY_TRUSTED_KEYS":  issuers.Keys.String(),
		"LOG_LEVEL":              "warn",
	}, issuers
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	vars, _ := validEnv(t)
	cfg := configtest.Load[Config](t, vars)
	if cfg.IdentityTokenTTL != time.Minute || cfg.InstanceID != "" || cfg.CacheTTL != time.Minute || cfg.PricingCacheTTL != time.Second ||
		cfg.CacheMaxEntries != 10000 || cfg.RequestTimeout != 10*time.Second {
		t.Fatalf("config %+v", cfg)
	}
	configtest.Masked(t, cfg, "secret@", operatorToken)
	if a, b := instanceID(), instanceID(); a == b || !strings.Contains(a, "-") {
		t.Fatalf("instance ids %q %q are not unique", a, b)
	}
}

func TestConfigValidation(t *testing.T) {
	vars, _ := validEnv(t)
	configtest.Refuses[Config](t, vars, map[string]configtest.Case{
		"short operator token": {"CATALOG_OPERATOR_TOKEN", "short", "CATALOG_OPERATOR_TOKEN must be at least 32 characters"},
		"bad trusted key":      {"IDENTITY_TRUSTED_KEYS", "gateway:bm90LWEta2V5", "IDENTITY_TRUSTED_KEYS"},
		"no checkout key":      {"IDENTITY_TRUSTED_KEYS", "gateway:opqrgTpk61PmBgzTcidS8v+Aj/rCToSp2NOlJ7iI+wQ=", "no key of checkout, registration is listed"},
		"bad request timeout":  {"REQUEST_TIMEOUT", "-1s", "REQUEST_TIMEOUT must be positive"},
		"bad ttl":              {"IDENTITY_TOKEN_TTL", "-1s", "IDENTITY_TOKEN_TTL must be positive"},
		"bad cache ttl":        {"CATALOG_PRICING_CACHE_TTL", "0s", "CATALOG_PRICING_CACHE_TTL must be positive"},
		"no cache":             {"CATALOG_CACHE_MAX_ENTRIES", "0", "CATALOG_CACHE_MAX_ENTRIES must be at least 1"},
	})
}

// joinsHeld starts a Kafka-protocol broker that refuses every consumer group join (its
// coordinator "still loading") until release is called.
func joinsHeld(t *testing.T) (brokers []string, release func()) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	var released atomic.Bool
	c.ControlKey(int16(kmsg.JoinGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if released.Load() {
			return nil, nil, false
		}
		res := req.ResponseKind().(*kmsg.JoinGroupResponse)
		res.ErrorCode = kerr.CoordinatorLoadInProgress.Code
		return res, nil, true
	})
	return c.ListenAddrs(), func() { released.Store(true) }
}

// get answers GET url, or the error that kept it from answering.
func get(t *testing.T, url string) (testkit.Response, error) {
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		return testkit.Response{}, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return testkit.Response{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return testkit.Response{Status: res.StatusCode, Raw: raw}, err
}

// TestRunMigrateServeAndOperate runs the binary's subcommands in process: migrate a fresh
// database, serve (not ready until the cache-invalidation consumer joined its group), import
// the demo with the operator CLI, read it as the gateway would, see the relay empty the
// outbox, and shut down on cancellation.
func TestRunMigrateServeAndOperate(t *testing.T) {
	vars, issuers := validEnv(t)
	dbURL := testkit.DatabaseURL(t)
	addr := testkit.FreeAddr(t)
	brokers, releaseJoins := joinsHeld(t)
	vars["DATABASE_URL"], vars["KAFKA_BROKERS"] = dbURL, strings.Join(brokers, ",")
	vars["PPROF_ADDR"] = testkit.FreeAddr(t)
	testkit.SetEnv(t, vars)
	t.Setenv("HTTP_ADDR", addr)
	t.Setenv("CATALOG_ADMIN_URL", "http://"+addr)

	servicetest.Migrate(t, program)
	servicetest.Start(t, program)
	readyz := "http://" + addr + "/readyz"
	testkit.Eventually(t, 30*time.Second, func() string {
		r, err := get(t, readyz)
		if err != nil || r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Raw), "cache invalidation consumer is not ready") {
			return fmt.Sprintf("readiness before the consumer joined: %v %d %s", err, r.Status, r.Raw)
		}
		return ""
	})
	releaseJoins()
	testkit.Eventually(t, 30*time.Second, func() string {
		if r, err := get(t, readyz); err != nil || r.Status != http.StatusOK {
			return fmt.Sprintf("readiness once the consumer may join: %v %d %s", err, r.Status, r.Raw)
		}
		return ""
	})

	_, here, _, _ := runtime.Caller(0)
	demo := filepath.Join(filepath.Dir(here), "..", "..", "demo")
	var out bytes.Buffer
	for _, f := range []string{"summer-throwdown", "winter-draft", "members-only"} {
		out.Reset()
		if err := program.Run(t.Context(), []string{"import", "--organizer", "org_demo", "--file", filepath.Join(demo, f+".yaml")}, &out); err != nil {
			t.Fatalf("import %s: %v", f, err)
		}
	}
	tok := issuers.Token(t, identity.Gateway, identity.Catalog, identity.Principal{OrganizerID: "org_demo", KeyID: "key_1", KeyType: identity.Publishable})
	if r := testkit.Do(t, http.MethodPost, "http://"+addr+"/external/v1/browser/events/search", nil, map[string]string{identity.Header: tok}); r.Status != http.StatusCreated ||
		r.Body["total"] != 1.0 {
		t.Fatalf("browser search through the served API: %d %s", r.Status, r.Raw)
	}
	if r, err := get(t, "http://"+vars["PPROF_ADDR"]+"/debug/pprof/"); err != nil || r.Status != http.StatusOK {
		t.Fatalf("profiles: %v %d", err, r.Status)
	}
	servicetest.WaitOutboxEmpty(t, dbURL)

	if err := program.Run(t.Context(), []string{"frobnicate"}, &bytes.Buffer{}); !errors.Is(err, service.ErrUsage) {
		t.Fatalf("unknown command: %v", err)
	}
	out.Reset()
	if err := program.Run(t.Context(), []string{"help"}, &out); err != nil || !strings.Contains(out.String(), "catalog import --organizer ORG --file event.yaml") {
		t.Fatalf("help: %v\n%s", err, out.String())
	}
}
