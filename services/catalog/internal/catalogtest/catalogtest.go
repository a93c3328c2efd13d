// Package catalogtest starts the catalog service for tests: a database of the test's own, the
// HTTP API on a real listener, identity signers of its callers, a controllable clock and, on request,
// an in-process Kafka-protocol broker with the outbox relay and both consumers.
package catalogtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/store"
	"github.com/podiumhq/podium/services/catalog/internal/api"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/cache"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/migrations"
)

// OperatorToken is the operator token of every test service.
const OperatorToken = "test-operator-token-0123456789abcdef"

// Options configures Start.
type Options struct {
	// Kafka starts a Kafka-protocol broker, the outbox relay, the cache-invalidation consumer
	// and the places consumer.
	Kafka bool
	// Brokers, with Kafka, joins an existing broker instead of starting one (a second instance).
	Brokers []string
	// Pool, when set, is the database to use (a second instance on the same database).
	Pool *pgxpool.Pool
	// PricingTTL and CacheTTL override the cache lifetimes (1 s and 60 s).
	PricingTTL time.Duration
	CacheTTL   time.Duration
}

// Env is a running catalog service.
type Env struct {
	// URL is the base address of the HTTP API.
	URL  string
	Pool *pgxpool.Pool
	// App is the Fiber app, for benchmarks that call handlers without a network.
	App *fiber.App
	// Clock is the service's clock (the cache's too).
	Clock   *testkit.Clock
	Service *app.Service
	Cache   *cache.Cache
	// Issuers mint identity tokens from each calling service; the service trusts every one's
	// key, so its route groups' own caller checks decide.
	Issuers *identitytest.Issuers
	// Brokers are the Kafka bootstrap addresses when Options.Kafka is set.
	Brokers []string
	// Invalidation is the cache-invalidation consumer when Options.Kafka is set.
	Invalidation *broker.Consumer
	// ChangesSeen counts the catalog.events.v1 messages the invalidation consumer handled.
	ChangesSeen atomic.Int64
}

// issuers are shared by every test service, so that two instances accept the same tokens.
var (
	issuersOnce sync.Once
	issuers     *identitytest.Issuers
)

func sharedIssuers(t testing.TB) *identitytest.Issuers {
	issuersOnce.Do(func() { issuers = identitytest.New(t) })
	return issuers
}

// Start runs the service until the test ends.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	env := &Env{Pool: o.Pool, Clock: &testkit.Clock{}, Issuers: sharedIssuers(t)}
	if env.Pool == nil {
		env.Pool = Pool(t)
	}
	env.Cache = cache.New(10_000, env.Clock.Now)
	env.Service = app.New(store.New(env.Pool), env.Clock.Now, env.Cache)
	log := testkit.Logger(t)
	ready := []httpserver.Check{{Name: "postgres", Fn: env.Pool.Ping}}
	if o.Kafka {
		env.startKafka(t, o)
		ready = append(ready, httpserver.Check{Name: "cache invalidation consumer", Fn: env.Invalidation.Ready})
	}
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: 2 << 20, TrustRequestID: true, Ready: ready,
	})
	api.Register(srv.App, api.Deps{
		Service: env.Service, Cache: env.Cache, Verifier: env.Issuers.Verifier(identity.Catalog), OperatorToken: OperatorToken,
		CacheTTL: or(o.CacheTTL, time.Minute), PricingTTL: or(o.PricingTTL, time.Second), EdgeTTL: time.Second,
	})
	env.App = srv.App
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env.URL = "http://" + ln.Addr().String()
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, 5*time.Second) })
	if o.Kafka {
		env.WaitReady(t)
	}
	return env
}

func (e *Env) startKafka(t testing.TB, o Options) {
	t.Helper()
	log := testkit.Logger(t)
	e.Brokers = o.Brokers
	if e.Brokers == nil {
		e.Brokers = testkit.Kafka(t)
	}
	topics := func(ctx context.Context) error {
		return broker.EnsureTopics(ctx, broker.Cluster{Brokers: e.Brokers}, 3, 1, domain.EventsTopic, domain.PlacesTopic)
	}
	if err := topics(t.Context()); err != nil {
		t.Fatal(err)
	}
	w := broker.NewWriter(broker.Cluster{Brokers: e.Brokers})
	t.Cleanup(func() { _ = w.Close() })
	relay := &outbox.Relay{Pool: e.Pool, Publisher: w, Log: log, Poll: 50 * time.Millisecond}
	testkit.Background(t, relay.Run)
	e.Invalidation = &broker.Consumer{
		Config: broker.ConsumerConfig{
			Cluster: broker.Cluster{Brokers: e.Brokers}, Group: events.CacheGroup(fmt.Sprintf("test-%p", e)), Topics: []string{domain.EventsTopic}, Log: log,
		},
		Handler: func(ctx context.Context, m broker.Message) error {
			err := events.ChangesHandler(e.Cache)(ctx, m)
			e.ChangesSeen.Add(1)
			return err
		},
		Topics: topics, Log: log,
	}
	testkit.Background(t, e.Invalidation.Run)
	places := &broker.Consumer{
		Config:  broker.ConsumerConfig{Cluster: broker.Cluster{Brokers: e.Brokers}, Group: events.PlacesGroup, Topics: []string{domain.PlacesTopic}, Log: log},
		Handler: events.PlacesHandler(e.Service, log), Topics: topics, Log: log,
	}
	testkit.Background(t, places.Run)
}

// WaitReady waits until /readyz answers 200 (the invalidation consumer joined its group).
func (e *Env) WaitReady(t testing.TB) {
	t.Helper()
	testkit.Eventually(t, 30*time.Second, func() string {
		if r := e.Do(t, http.MethodGet, "/readyz", nil, nil); r.Status != http.StatusOK {
			return "the catalog was not ready within 30s: " + string(r.Raw)
		}
		return ""
	})
}

// Pool returns a pool on a fresh database with the service's and the outbox's migrations.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return testkit.Pool(t, migrations.Set(), outbox.Migrations())
}

func or(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
