// Package checkouttest starts the checkout service for tests: its own Postgres database, the
// HTTP API on a real listener and the refund worker, HTTP doubles of the catalog and registration services speaking
// their contracts, stripe-mock behind a counting proxy, identity signers of checkout's callers
// and of checkout itself, a clock and,
// on request, an in-process Kafka-protocol broker with the outbox relay and the order-events
// consumer.
package checkouttest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/events"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/payments"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/registration"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/api"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
	"github.com/podiumhq/podium/services/checkout/migrations"
)

// WebhookSecret signs the tests' live-mode webhooks.
const WebhookSecret = "whsec_test_checkout_0123456789abcdef" //nolint:gosec // a test-only secret, signing test webhooks

// Stripe credentials of the two modes (both stripe-mock's): the proxy tells the mode of a call
// by its key (Stripe.LastKey).
const (
	LiveStripeKey = "sk_test_checkout"
	TestStripeKey = "sk_test_checkoutTestMode"
	// TestWebhookSecret signs test-mode webhooks (STRIPE_TEST_WEBHOOK_SECRET).
	TestWebhookSecret = "whsec_test_mode_checkout_fedcba9876543210" //nolint:gosec // a test-only secret
)

// RefundScan is how often each instance's refund worker looks for due refunds in tests (and
// at once when its process decides one): often, so that a refund due after the clock moved is
// made soon.
const RefundScan = 100 * time.Millisecond

// Options configures Start.
type Options struct {
	// Kafka starts a Kafka-protocol broker, the outbox relay and the order-events consumer.
	Kafka bool
	// IdempotencyWait overrides how long a request waits for a running one with its key.
	IdempotencyWait time.Duration
	// HoldTTL overrides how long places are held (app.DefaultHoldTTL).
	HoldTTL time.Duration
	// PeerTimeout overrides how long a call to the catalog or registration may take (5 s).
	PeerTimeout time.Duration
	// RefundScan overrides how often the refund worker looks for due refunds (RefundScan).
	RefundScan time.Duration
	// RefunderIdle is called each time the refund worker finished a pass (app.Options).
	RefunderIdle func()
	// NoTestMode starts the service without test-mode Stripe credentials.
	NoTestMode bool
}

// Env is a running checkout service with its peers.
type Env struct {
	URL   string
	Pool  *pgxpool.Pool
	Clock *testkit.Clock
	// Issuers mint identity tokens from each calling service, and checkout's own; the service
	// trusts every one's key, so its routes' own caller checks decide.
	Issuers      *identitytest.Issuers
	Catalog      *Catalog
	Registration *Registration
	Stripe       *Stripe
	Service      *app.Service
	// App is the Fiber app of the latest instance, for tests that send it requests in memory.
	App *fiber.App
	// Brokers are the Kafka bootstrap addresses when Options.Kafka is set.
	Brokers []string
	opts    Options
}

// Start runs the service until the test ends.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	env := &Env{Pool: Pool(t), Clock: &testkit.Clock{}, Issuers: identitytest.New(t), opts: o}
	env.Catalog = NewCatalog(t, env.Issuers.Verifier(identity.Catalog))
	env.Registration = NewRegistration(t, env.Issuers.Verifier(identity.Registration))
	env.Stripe = NewStripe(t)
	log := testkit.Logger(t)
	env.serve(t)
	if o.Kafka {
		env.Brokers = testkit.Kafka(t)
		if err := broker.EnsureTopics(t.Context(), broker.Cluster{Brokers: env.Brokers}, 3, 1, domain.PaymentsTopic, domain.OrdersTopic); err != nil {
			t.Fatal(err)
		}
		w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
		t.Cleanup(func() { _ = w.Close() })
		testkit.Background(t, (&outbox.Relay{Pool: env.Pool, Publisher: w, Log: log, Poll: 50 * time.Millisecond}).Run)
		joined := make(chan struct{})
		consumer := &events.OrdersConsumer{Cluster: broker.Cluster{Brokers: env.Brokers}, Handler: env.Service, Log: log, Joined: func() { close(joined) }}
		testkit.Background(t, consumer.Consumer().Run)
		select {
		case <-joined:
		case <-time.After(30 * time.Second):
			t.Fatal("the order-events consumer did not join its group within 30s")
		}
	}
	return env
}

// Restart starts another instance of the service on the same database and peers and points
// URL at it, as after a crash: nothing the first one kept in memory is known to it.
func (e *Env) Restart(t testing.TB) {
	t.Helper()
	e.serve(t)
}

// serve starts an instance of the service on a listener of its own.
func (e *Env) serve(t testing.TB) {
	t.Helper()
	log := testkit.Logger(t)
	self := e.Issuers.Signer(identity.Checkout)
	peerTimeout := e.opts.PeerTimeout
	if peerTimeout == 0 {
		peerTimeout = 5 * time.Second
	}
	var testPayments app.Payments
	if !e.opts.NoTestMode {
		testPayments = payments.New(payments.Options{SecretKey: TestStripeKey, APIBase: e.Stripe.URL, WebhookSecret: TestWebhookSecret, MaxNetworkRetries: -1})
	}
	e.Service = app.New(store.New(e.Pool), catalog.New(e.Catalog.URL, peerTimeout, self), registration.New(e.Registration.URL, peerTimeout, self),
		payments.New(payments.Options{SecretKey: LiveStripeKey, APIBase: e.Stripe.URL, WebhookSecret: WebhookSecret, MaxNetworkRetries: -1}),
		log, app.Options{Now: e.Clock.Now, IdempotencyWait: e.opts.IdempotencyWait, HoldTTL: e.opts.HoldTTL, RefunderIdle: e.opts.RefunderIdle,
			TestPayments: testPayments})
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: 2 << 20, TrustRequestID: true,
		Ready: []httpserver.Check{{Name: "postgres", Fn: e.Pool.Ping}},
	})
	api.Register(srv.App, e.Service, e.Issuers.Verifier(identity.Checkout))
	e.App = srv.App
	svc, scan := e.Service, e.opts.RefundScan
	if scan == 0 {
		scan = RefundScan
	}
	testkit.Background(t, func(ctx context.Context) error { return svc.RunRefunder(ctx, scan) })
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.URL = "http://" + ln.Addr().String()
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, 5*time.Second) })
}

// PromocodeUses returns the uses of an event's promocode at the service clock's time, as
// the repository counts them.
func (e *Env) PromocodeUses(t testing.TB, eventID, code string) int {
	t.Helper()
	n, err := store.New(e.Pool).PromocodeUses(t.Context(), eventID, code, true, e.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// Pool returns a pool on a fresh database with the service's and the outbox's migrations.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return testkit.Pool(t, migrations.Set(), outbox.Migrations())
}

// Token mints an identity token for p as the gateway does for the routes it forwards.
func (e *Env) Token(t testing.TB, p identity.Principal) string {
	t.Helper()
	return e.Issuers.Token(t, identity.Gateway, identity.Checkout, p)
}

// Browser posts body to a browser route as the gateway forwards it for a publishable key
// (Site's origin) of OrgID.
func (e *Env) Browser(t testing.TB, path string, body any, keyID string) testkit.Response {
	t.Helper()
	tok := e.Token(t, identity.Principal{OrganizerID: OrgID, KeyID: keyID, KeyType: identity.Publishable, Origin: Site})
	return e.Do(t, http.MethodPost, "/external/v1/browser/checkout/registration/"+path, body, map[string]string{identity.Header: tok})
}

// BrowserFrom posts body to a browser route like Browser, from the client address ip (the
// gateway's X-Podium-Client-Ip).
func (e *Env) BrowserFrom(t testing.TB, path string, body any, keyID, ip string) testkit.Response {
	t.Helper()
	tok := e.Token(t, identity.Principal{OrganizerID: OrgID, KeyID: keyID, KeyType: identity.Publishable, Origin: Site})
	return e.Do(t, http.MethodPost, "/external/v1/browser/checkout/registration/"+path, body,
		map[string]string{identity.Header: tok, identity.HeaderClientIP: ip})
}

// Webhook posts a raw payload to the Stripe webhook route as the gateway forwards it.
func (e *Env) Webhook(t testing.TB, payload []byte, signature string) testkit.Response {
	t.Helper()
	h := map[string]string{identity.Header: e.Token(t, identity.Principal{KeyID: "stripe-webhook", KeyType: identity.Service})}
	if signature != "" {
		h["Stripe-Signature"] = signature
	}
	return e.Do(t, http.MethodPost, "/webhooks/stripe", json.RawMessage(payload), h)
}

// SignedWebhook posts payload signed with WebhookSecret at the given time.
func (e *Env) SignedWebhook(t testing.TB, payload []byte, at time.Time) testkit.Response {
	t.Helper()
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: WebhookSecret, Timestamp: at})
	return e.Webhook(t, payload, signed.Header)
}

// SignedTestWebhook posts payload signed with TestWebhookSecret at the given time.
func (e *Env) SignedTestWebhook(t testing.TB, payload []byte, at time.Time) testkit.Response {
	t.Helper()
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: TestWebhookSecret, Timestamp: at})
	return e.Webhook(t, payload, signed.Header)
}

// Do sends method path to the service with body as JSON (when not nil) and the given headers.
func (e *Env) Do(t testing.TB, method, path string, body any, headers map[string]string) testkit.Response {
	t.Helper()
	return testkit.Do(t, method, e.URL+path, body, headers)
}
