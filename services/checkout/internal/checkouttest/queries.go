package checkouttest

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/payments"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
)

// Queries counts the queries a pool sends to Postgres (a pgx tracer).
type Queries struct{ n atomic.Int64 }

// Count returns how many queries were sent so far.
func (q *Queries) Count() int64 { return q.n.Load() }

// Reset forgets the queries sent so far.
func (q *Queries) Reset() { q.n.Store(0) }

// TraceQueryStart counts a query.
func (q *Queries) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	q.n.Add(1)
	return ctx
}

// TraceQueryEnd does nothing.
func (q *Queries) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// CountedService returns another instance of the service's use cases, on the same database,
// Stripe and clock, whose pool of its own counts the queries it sends: what a use case costs
// the database. It calls no peer.
func (e *Env) CountedService(t testing.TB) (*app.Service, *Queries) {
	t.Helper()
	return e.instance(t, e.Clock)
}

// InstanceOn returns another instance of the service's use cases, as CountedService does, on
// a clock of its own.
func (e *Env) InstanceOn(t testing.TB, clock *testkit.Clock) *app.Service {
	t.Helper()
	svc, _ := e.instance(t, clock)
	return svc
}

func (e *Env) instance(t testing.TB, clock *testkit.Clock) (*app.Service, *Queries) {
	cfg := e.Pool.Config().Copy()
	q := &Queries{}
	cfg.ConnConfig.Tracer = q
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	stripe := payments.New(payments.Options{SecretKey: LiveStripeKey, APIBase: e.Stripe.URL, WebhookSecret: WebhookSecret, MaxNetworkRetries: -1})
	var testStripe app.Payments
	if !e.opts.NoTestMode {
		testStripe = payments.New(payments.Options{SecretKey: TestStripeKey, APIBase: e.Stripe.URL, WebhookSecret: TestWebhookSecret, MaxNetworkRetries: -1})
	}
	return app.New(store.New(pool), nil, nil, stripe, testkit.Logger(t), app.Options{Now: clock.Now, HoldTTL: e.opts.HoldTTL, TestPayments: testStripe}), q
}
