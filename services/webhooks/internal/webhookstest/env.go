// Package webhookstest starts the webhooks service for tests: a database of the test's own,
// the HTTP API on a real listener, identity signers of its callers, a clock of the test's, the
// dispatcher's wake channel, and on request the consumer on an in-process Kafka-protocol
// broker, and the notifier with an in-process SMTP catcher and a double of auth.
package webhookstest

import (
	"context"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/apispec"
	apicontract "github.com/podiumhq/podium/libs/apispec/contracttest"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/contracttest"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/contracts"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/migrations"
)

// SecretsKey is the SECRETS_KEY of the service under test (base64 of 32 bytes).
var SecretsKey = base64.StdEncoding.EncodeToString([]byte("webhooks-test-secrets-key-32-byt"))

// Options configures Start.
type Options struct {
	// Kafka starts a Kafka-protocol broker and the consumer.
	Kafka bool
	// MaxEndpoints is the endpoint limit (0: 16).
	MaxEndpoints int
	// Retention is how long messages are kept (0: 720h).
	Retention time.Duration
	// Ingester, when set, wraps the service as the consumer's (to observe what it stores).
	Ingester func(events.Ingester) events.Ingester
}

// Env is a running webhooks service.
type Env struct {
	URL     string
	Pool    *pgxpool.Pool
	Repo    *store.Repository
	Service *app.Service
	Sealer  *domain.Sealer
	Clock   *testkit.Clock
	// Wake is the dispatcher's channel, which the service signals when deliveries are due.
	Wake chan struct{}
	// Issuers mint identity tokens from the gateway, auth and the others; the service trusts
	// every one's key, so its route groups' caller checks decide.
	Issuers *identitytest.Issuers
	Brokers []string
}

// Start runs the service until the test ends. It allows loopback receivers, as tests send
// traffic only there.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	key, err := domain.ParseSecretsKey(SecretsKey)
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{Clock: &testkit.Clock{}, Issuers: identitytest.New(t), Wake: make(chan struct{}, 1)}
	if e.Sealer, err = domain.NewSealer(key); err != nil {
		t.Fatal(err)
	}
	e.Pool = testkit.Pool(t, migrations.Set(), outbox.Migrations())
	e.Repo = store.New(e.Pool)
	opts := app.Options{Rules: domain.Rules{AllowLoopback: true}, MaxEndpoints: o.MaxEndpoints, Retention: o.Retention, Wake: e.Wake}
	if opts.MaxEndpoints == 0 {
		opts.MaxEndpoints = 16
	}
	if opts.Retention == 0 {
		opts.Retention = 720 * time.Hour
	}
	log := testkit.Logger(t)
	e.Service = app.New(e.Repo, e.Sealer, e.Clock.Now, log, opts)
	srv := httpserver.New(httpserver.Options{Log: log, BodyLimit: 1 << 20, TrustRequestID: true,
		Ready: []httpserver.Check{{Name: "postgres", Fn: e.Pool.Ping}}})
	api.Register(srv.App, api.Deps{Service: e.Service, Verifier: e.Issuers.Verifier(identity.Webhooks), Validator: validator(t)})
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.URL = "http://" + ln.Addr().String()
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, 5*time.Second) })
	if o.Kafka {
		e.startConsumer(t, o.Ingester)
	}
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	return e
}

// startConsumer starts a broker and the consumer, and waits until it joined its group.
func (e *Env) startConsumer(t testing.TB, wrap func(events.Ingester) events.Ingester) {
	t.Helper()
	e.Brokers = testkit.Kafka(t)
	cluster := broker.Cluster{Brokers: e.Brokers}
	if err := broker.EnsureTopics(t.Context(), cluster, 3, 1, domain.Topics...); err != nil {
		t.Fatal(err)
	}
	var ingester events.Ingester = e.Service
	if wrap != nil {
		ingester = wrap(e.Service)
	}
	joined := make(chan struct{})
	var once sync.Once
	c := (&events.Consumer{Cluster: cluster, Service: ingester, Log: testkit.Logger(t), Joined: func() { once.Do(func() { close(joined) }) }}).Consumer()
	testkit.Background(t, c.Run)
	select {
	case <-joined:
	case <-time.After(30 * time.Second):
		t.Fatal("the consumer did not join its group")
	}
}

// Publish sends a producer's event as the outbox relay does: keyed, with its CloudEvents
// headers.
func (e *Env) Publish(t testing.TB, topic, key, id, typ string, data []byte) {
	t.Helper()
	w := broker.NewWriter(broker.Cluster{Brokers: e.Brokers})
	defer func() { _ = w.Close() }()
	if err := w.Publish(t.Context(), broker.Message{Topic: topic, Key: key, Value: data, Headers: map[string]string{
		broker.HeaderID: id, broker.HeaderType: typ, broker.HeaderSpecVersion: "1.0", broker.HeaderContentType: "application/json",
		broker.HeaderSource: "podium/test", broker.HeaderTime: time.Now().UTC().Format(time.RFC3339Nano),
	}}); err != nil {
		t.Fatal(err)
	}
}

// Do sends a request with body as JSON and, unless it is "", the identity token. Every answer
// of an internal route is checked against the internal contract, every answer of an external
// one against the OpenAPI document (a status it gives the operation, the body it describes).
func (e *Env) Do(t testing.TB, method, path string, body any, token string) testkit.Response {
	t.Helper()
	var headers map[string]string
	if token != "" {
		headers = map[string]string{identity.Header: token}
	}
	r := testkit.Do(t, method, e.URL+path, body, headers)
	switch {
	case strings.HasPrefix(path, "/internal/"):
		InternalAPI.Served(t, method, path, r.Status, r.Raw)
	case strings.HasPrefix(path, apicontract.BasePath+"/"):
		op, ok := operationOf(method, path)
		if !ok {
			t.Fatalf("%s %s is no operation of the OpenAPI document", method, path)
		}
		if err := apicontract.Check(validator(t), op, apicontract.Answer{Status: r.Status, Header: r.Header, Body: r.Raw}); err != nil {
			t.Errorf("%s %s: %v", method, path, err)
		}
	}
	return r
}

// validator is the OpenAPI document's, compiled once.
var validator = func() func(t testing.TB) *apispec.Validator {
	compiled := sync.OnceValues(apispec.NewValidator)
	return func(t testing.TB) *apispec.Validator {
		v, err := compiled()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}()

// operationOf names the operation of the OpenAPI document that serves method and path.
func operationOf(method, path string) (string, bool) {
	path, _, _ = strings.Cut(strings.TrimPrefix(path, apicontract.BasePath), "?")
	got := strings.Split(path, "/")
	for _, op := range apispec.Operations() {
		want := strings.Split(op.Path, "/")
		if op.Method != method || len(want) != len(got) {
			continue
		}
		match := true
		for i := range want {
			match = match && (want[i] == got[i] || strings.HasPrefix(want[i], "{") && got[i] != "")
		}
		if match {
			return op.ID, true
		}
	}
	return "", false
}

// InternalAPI is the service's internal contract.
var InternalAPI = contracttest.MustParse(contracts.Internal)

// Secret is the gateway's token for a secret key of org with the webhooks:write scope.
func (e *Env) Secret(t testing.TB, org string) string {
	return e.Issuers.Token(t, identity.Gateway, identity.Webhooks, identity.Principal{
		OrganizerID: org, KeyID: "key_" + org, KeyType: identity.Secret, Scopes: []string{api.ScopeWrite}})
}

// TestSecret is the gateway's token for a test secret key of org with the webhooks:write scope.
func (e *Env) TestSecret(t testing.TB, org string) string {
	return e.Issuers.Token(t, identity.Gateway, identity.Webhooks, identity.Principal{
		OrganizerID: org, KeyID: "key_test_" + org, KeyType: identity.Secret, Scopes: []string{api.ScopeWrite}, Test: true})
}

// Registration is registration's token for the caller it serves: a secret key of org, of
// test mode when test.
func (e *Env) Registration(t testing.TB, org string, test bool) string {
	return e.Issuers.Token(t, identity.Registration, identity.Webhooks, identity.Principal{
		OrganizerID: org, KeyID: "key_reg_" + org, KeyType: identity.Secret, Scopes: []string{"registrations:write"}, Test: test})
}

// Console is auth's token for the console of org's member.
func (e *Env) Console(t testing.TB, org string) string {
	return e.Issuers.Token(t, identity.Auth, identity.Webhooks, identity.Principal{OrganizerID: org, KeyID: "console", KeyType: identity.Service})
}

// Woken reports whether the service signalled the dispatcher since the last call.
func (e *Env) Woken() bool {
	select {
	case <-e.Wake:
		return true
	default:
		return false
	}
}
