// Package regtest starts the registration service for tests: a database of the test's own,
// the HTTP API on a real listener, an HTTP double of the catalog's internal API, identity
// signers of its callers (and its own), a controllable clock and, on request, the outbox relay on an in-process
// Kafka-protocol broker and an in-process SMTP catcher (libs/mail/mailcatch) with the mail worker.
package regtest

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/contracts"
	"github.com/podiumhq/podium/services/registration/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/api"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/migrations"
)

// Options configures Start.
type Options struct {
	// Kafka starts a Kafka-protocol broker and the outbox relay.
	Kafka bool
	// Mail starts an in-process SMTP server and the mail worker.
	Mail bool
	// CatalogTTL is the event cache lifetime (0: no cache).
	CatalogTTL time.Duration
	// Pool, when set, is used instead of a fresh database.
	Pool *pgxpool.Pool
	// MaxConns sizes a fresh pool (0: 8).
	MaxConns int32
	// App tunes the service (hold caps, receipt cooldown); nil takes app.DefaultOptions, the
	// configuration's defaults.
	App *app.Options
}

// Env is a running registration service.
type Env struct {
	URL     string
	Pool    *pgxpool.Pool
	Repo    *store.Repository
	Service *app.Service
	Clock   *testkit.Clock
	// Issuers mint identity tokens from each calling service, and registration's own; the
	// service trusts every one's key, so its route groups' own caller checks decide.
	Issuers *identitytest.Issuers
	Catalog *Catalog
	Brokers []string
	Mail    *mailcatch.Catcher
	// Validator checks responses against the OpenAPI document.
	Validator *apispec.Validator
	// App is the service's Fiber app, for tests that send it requests in memory.
	App *fiber.App
	// principals remembers the principal of each token Token minted, so that Do can send it to
	// an internal route as checkout would.
	principals sync.Map
}

// Start runs the service until the test ends.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	v, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Pool: o.Pool, Clock: &testkit.Clock{}, Issuers: identitytest.New(t), Validator: v}
	if env.Pool == nil {
		env.Pool = NewPool(t, o.MaxConns)
	}
	env.Catalog = StartCatalog(t, env.Issuers.Verifier(identity.Catalog))
	env.Repo = store.New(env.Pool)
	opts := app.DefaultOptions
	if o.App != nil {
		opts = *o.App
	}
	catalogPeer := peer.New(peer.Options{Name: identity.Catalog, BaseURL: env.Catalog.URL, Timeout: 5 * time.Second, Signer: env.Issuers.Signer(identity.Registration)})
	env.Service = app.New(env.Repo, catalog.New(catalogPeer, o.CatalogTTL), env.Clock.Now, opts)
	log := testkit.Logger(t)
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: 1 << 20, TrustRequestID: true,
		Ready: []httpserver.Check{{Name: "postgres", Fn: env.Pool.Ping}},
	})
	api.Register(srv.App, api.Deps{Service: env.Service, Verifier: env.Issuers.Verifier(identity.Registration), Validator: v})
	env.App = srv.App
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env.URL = "http://" + ln.Addr().String()
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, 5*time.Second) })
	if o.Kafka {
		env.Brokers = testkit.Kafka(t)
		if err := broker.EnsureTopics(t.Context(), broker.Cluster{Brokers: env.Brokers}, 3, 1, domain.PlacesTopic, domain.OrdersTopic, domain.RegistrationsTopic, domain.PaymentsTopic); err != nil {
			t.Fatal(err)
		}
		w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
		t.Cleanup(func() { _ = w.Close() })
		relay := &outbox.Relay{Pool: env.Pool, Publisher: w, Log: log, Poll: 50 * time.Millisecond}
		testkit.Background(t, relay.Run)
	}
	if o.Mail {
		env.Mail = StartMailCatcher(t)
		env.StartMailWorker(t, env.Mail.Addr())
	}
	// Runs before the server's shutdown (cleanups run last-in first-out): connections Do's
	// client dialed but never used would otherwise keep the server from draining.
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	return env
}

// NewPool returns a pool on a fresh database with the service's and the outbox's migrations.
func NewPool(t testing.TB, maxConns int32) *pgxpool.Pool {
	t.Helper()
	if maxConns == 0 {
		return testkit.Pool(t, migrations.Set(), outbox.Migrations())
	}
	url := testkit.DatabaseURL(t, migrations.Set(), outbox.Migrations())
	pool, err := postgres.Connect(t.Context(), url, postgres.Options{MaxConns: maxConns})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Do sends a request with body as JSON (raw bytes as they are) and, unless it is "", the
// identity token (see Token).
func (e *Env) Do(t testing.TB, method, path string, body any, token string) testkit.Response {
	t.Helper()
	var headers map[string]string
	if token != "" {
		headers = map[string]string{identity.Header: e.asCaller(t, path, token)}
	}
	r := testkit.Do(t, method, e.URL+path, body, headers)
	if strings.HasPrefix(path, "/internal/") {
		InternalAPI.Served(t, method, path, r.Status, r.Raw)
	}
	return r
}

// InternalAPI is registration's internal contract. Every answer of an internal route that Do
// reads is checked against it.
var InternalAPI = contracttest.MustParse(contracts.Internal)

// Token mints an identity token for p as the gateway does for the routes it forwards. Do sends
// such a token to an /internal route as checkout's token for the same principal, since
// checkout calls those routes for the purchase's organizer and key; a token minted otherwise
// (through Issuers) is sent as it is.
func (e *Env) Token(t testing.TB, p identity.Principal) string {
	t.Helper()
	tok := e.Issuers.Token(t, identity.Gateway, identity.Registration, p)
	e.principals.Store(tok, p)
	return tok
}

// asCaller returns the token to send to path for token: checkout's for an internal route when
// token is one Token minted.
func (e *Env) asCaller(t testing.TB, path, token string) string {
	if !strings.HasPrefix(path, "/internal/") {
		return token
	}
	if p, ok := e.principals.Load(token); ok {
		return e.Issuers.Token(t, identity.Checkout, identity.Registration, p.(identity.Principal))
	}
	return token
}

// Secret is the token of a secret key of org with every registrations scope.
func (e *Env) Secret(t testing.TB, org string) string {
	return e.Token(t, identity.Principal{OrganizerID: org, KeyID: "key_" + org, KeyType: identity.Secret,
		Scopes: []string{"registrations:read", "registrations:write"}})
}

// Browser is the token of a publishable key of org.
func (e *Env) Browser(t testing.TB, org string) string {
	return e.Token(t, identity.Principal{OrganizerID: org, KeyID: "key_pk_" + org, KeyType: identity.Publishable, Origin: "https://shop.example"})
}

// Valid fails the test unless r's body matches the document for operationID.
func (e *Env) Valid(t testing.TB, operationID string, r testkit.Response) {
	t.Helper()
	if err := e.Validator.ValidateResponse(operationID, r.Status, r.Raw); err != nil {
		t.Fatalf("%s %d response does not match the document: %v\n%s", operationID, r.Status, err, r.Raw)
	}
}
