// Package authtest starts the auth service for tests: a database of the test's own, the HTTP
// API on a real listener, identity signers of its callers, a controllable clock, the console
// with a double of the webhooks service it calls and, on request, the outbox relay publishing
// to an in-process Kafka-protocol broker.
package authtest

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/contracts"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/api"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
	"github.com/podiumhq/podium/services/auth/migrations"
)

// OperatorToken is the operator token of every test service, CookieKey its console's cookie
// key (tests make markers of their own with it).
const (
	OperatorToken = "test-operator-token-0123456789abcdef"
	CookieKey     = "test-console-cookie-key-0123456789abcdef"
)

// Options configures Start.
type Options struct {
	// Kafka starts a Kafka-protocol broker and the outbox relay.
	Kafka bool
	// SignInPerBrowser, SignInPerEmail and SignInPerAddress are the console's sign-in limits
	// per window (15 minutes, domain.SignInLimits); zero means 3, 5 and 20.
	SignInPerBrowser, SignInPerEmail, SignInPerAddress int
	// SessionTTL is a console session's lifetime; zero means SessionTTL.
	SessionTTL time.Duration
	// SignInRequestsPerMinute bounds each client network's sign-in requests; zero means 20, the
	// service's default.
	SignInRequestsPerMinute int
	// ConsoleConns is the size of the console's own pool; zero means 4, the service's default.
	ConsoleConns int32
	// WebhooksTimeout bounds the console's calls to the webhooks double; zero means 5s.
	WebhooksTimeout time.Duration
	// PoolTracer, when set, sees every query of the service's pools.
	PoolTracer pgx.QueryTracer
}

// Env is a running auth service.
type Env struct {
	// URL is the base address of the HTTP API.
	URL string
	// Pool is the pool of the APIs, ConsolePool the console's own, on the same database.
	Pool, ConsolePool *pgxpool.Pool
	// Clock is the service's clock.
	Clock *testkit.Clock
	// Service is the service's use cases, for tests to flush the keys' recorded uses.
	Service *app.Service
	// Issuers mint internal identity tokens from each calling service; the service trusts
	// every one's key, so its routes' own caller checks decide.
	Issuers *identitytest.Issuers
	// Brokers are the Kafka bootstrap addresses when Options.Kafka is set.
	Brokers []string
	// ConsoleURL is the console's address (on localhost, as browsers treat it as secure).
	ConsoleURL string
	// Console is the console's use cases on its own pool, with Console* settings.
	Console *app.Console
	// Mail catches what the console sends.
	Mail *mailcatch.Catcher
	// Webhooks is the double of the webhooks service the console calls.
	Webhooks *Webhooks
	// Registration is the double of the registration service's test-data routes.
	Registration *Registration
}

// Console lifetimes of every test service.
const (
	SignInLinkTTL = 15 * time.Minute
	SessionTTL    = 12 * time.Hour
	SignInWindow  = 15 * time.Minute
)

// Start runs the service until the test ends.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	env := &Env{Clock: &testkit.Clock{}, Issuers: identitytest.New(t)}
	dbURL := testkit.DatabaseURL(t, migrations.Set(), outbox.Migrations())
	env.Pool = newPool(t, dbURL, poolSize, o.PoolTracer)
	env.ConsolePool = newPool(t, dbURL, orDefault(o.ConsoleConns, defaultConsoleConns), o.PoolTracer)
	log := testkit.Logger(t)
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: 1 << 20, TrustRequestID: true,
		Ready: []httpserver.Check{{Name: "postgres", Fn: env.Pool.Ping}},
	})
	env.Service = app.New(store.New(env.Pool), env.Clock.Now)
	operatorLinks := env.startConsole(t, o, log)
	api.Register(srv.App, api.Deps{
		Service:       env.Service,
		Console:       operatorLinks,
		OperatorToken: OperatorToken,
		Verifier:      env.Issuers.Verifier(identity.Auth),
	})
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env.URL = "http://" + ln.Addr().String()
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, 5*time.Second) })
	if o.Kafka {
		env.Brokers = testkit.Kafka(t)
		if err := broker.EnsureTopics(t.Context(), broker.Cluster{Brokers: env.Brokers}, 3, 1, domain.KeysTopic); err != nil {
			t.Fatal(err)
		}
		w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
		t.Cleanup(func() { _ = w.Close() })
		relay := &outbox.Relay{Pool: env.Pool, Publisher: w, Log: log, Poll: 50 * time.Millisecond}
		testkit.Background(t, relay.Run)
	}
	return env
}

// Pool returns a pool on a fresh database with the service's and the outbox's migrations.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return testkit.Pool(t, migrations.Set(), outbox.Migrations())
}

// newPool opens a pool of size connections on the database dbURL, as the service does, or, when
// tracer is set, one whose queries tracer sees.
func newPool(t testing.TB, dbURL string, size int32, tracer pgx.QueryTracer) *pgxpool.Pool {
	t.Helper()
	if tracer == nil {
		pool, err := postgres.Connect(t.Context(), dbURL, postgres.Options{MaxConns: size})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		return pool
	}
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = size
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// poolSize is how many connections a test service's API pool opens at most, as testkit.Pool;
// defaultConsoleConns is the console's pool's size by default, the service's.
const (
	poolSize            int32 = 8
	defaultConsoleConns int32 = 4
)

// Do sends method path to the service with body as JSON (when not nil) and the given headers.
func (e *Env) Do(t testing.TB, method, path string, body any, headers map[string]string) testkit.Response {
	t.Helper()
	r := testkit.Do(t, method, e.URL+path, body, headers)
	if strings.HasPrefix(path, "/internal/") {
		InternalAPI.Served(t, method, path, r.Status, r.Raw)
	}
	return r
}

// InternalAPI is auth's internal contract. Every answer of an internal route that Do reads is
// checked against it.
var InternalAPI = contracttest.MustParse(contracts.Internal)

// Admin calls the admin API with the operator token.
func (e *Env) Admin(t testing.TB, method, path string, body any) testkit.Response {
	t.Helper()
	return e.Do(t, method, path, body, map[string]string{"Authorization": "Bearer " + OperatorToken})
}

// Internal calls the internal API as the gateway, with a service principal's token.
func (e *Env) Internal(t testing.TB, path string, body any) testkit.Response {
	t.Helper()
	tok := e.Token(t, identity.Principal{KeyID: "gateway", KeyType: identity.Service})
	return e.Do(t, http.MethodPost, path, body, map[string]string{identity.Header: tok})
}

// Token mints an identity token for p as the gateway does for its calls to auth.
func (e *Env) Token(t testing.TB, p identity.Principal) string {
	t.Helper()
	return e.Issuers.Token(t, identity.Gateway, identity.Auth, p)
}

// Organizer creates an organizer through the admin API and returns its id.
func (e *Env) Organizer(t testing.TB, name string) string {
	t.Helper()
	r := e.Admin(t, http.MethodPost, "/admin/organizers", map[string]any{"name": name})
	if r.Status != http.StatusCreated {
		t.Fatalf("create organizer: %d %s", r.Status, r.Raw)
	}
	return r.Body["id"].(string)
}

// Key creates a key through the admin API and returns the response body.
func (e *Env) Key(t testing.TB, organizerID string, body map[string]any) map[string]any {
	t.Helper()
	r := e.Admin(t, http.MethodPost, "/admin/organizers/"+organizerID+"/keys", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create key: %d %s", r.Status, r.Raw)
	}
	return r.Body
}
