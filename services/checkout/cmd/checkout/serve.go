package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/background"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/telemetry"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/events"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/payments"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/registration"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/api"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// peerTimeout bounds a call to catalog or registration.
const peerTimeout = 5 * time.Second

// sweepInterval is how often idempotency keys and stale checkouts are swept.
const sweepInterval = time.Minute

// serve builds the dependencies in order, serves until ctx is done, and closes them in
// reverse order: the server drains (readiness failing first), then the consumer, the
// reconciler, the refund worker, the sweeper and the relay stop, then the broker writer, the pool and the
// telemetry providers close.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	log.Info("starting checkout", "config", config.LogValue(cfg))
	tel, err := service.Observe(ctx, "checkout", cfg.Base, log)
	if err != nil {
		return err
	}
	defer tel.Close(log) //nolint:contextcheck // the run context has ended by then

	pool, err := postgres.Open(ctx, cfg.Postgres, 20)
	if err != nil {
		return err
	}
	defer pool.Close()

	cluster, err := broker.NewCluster(cfg.Kafka)
	if err != nil {
		return err
	}
	if err := broker.EnsureTopics(ctx, cluster, cfg.KafkaTopicPartitions, cfg.KafkaReplicationFactor, domain.PaymentsTopic, domain.OrdersTopic); err != nil {
		return err
	}
	writer := broker.NewWriter(cluster)
	defer writer.Close() //nolint:errcheck // pending writes are already flushed: the relay stopped

	relay := &outbox.Relay{Pool: pool, Publisher: writer, Log: log}
	defer background.Start(ctx, log, "outbox relay", relay.Run)()

	key, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	signer := identity.NewSigner(identity.Checkout, key, cfg.IdentityTokenTTL)
	addressBackoff, keyBackoff := cfg.Backoffs()
	svc := app.New(store.New(pool), catalog.New(cfg.CatalogURL, peerTimeout, signer), registration.New(cfg.RegistrationURL, peerTimeout, signer),
		payments.New(payments.Options{SecretKey: cfg.StripeSecretKey, APIBase: cfg.StripeAPIBase, WebhookSecret: cfg.StripeWebhookSecret}),
		log, app.Options{HoldTTL: cfg.HoldTTL, Retention: cfg.IdempotencyRetention, AddressBackoff: addressBackoff, KeyBackoff: keyBackoff,
			UnknownRetryWindow: cfg.WebhookUnknownRetryWindow, ReconcileLookback: cfg.ReconcileLookback})
	defer background.Start(ctx, log, "sweeper", func(ctx context.Context) error { return svc.RunSweeper(ctx, sweepInterval) })()
	defer background.Start(ctx, log, "refund worker", func(ctx context.Context) error { return svc.RunRefunder(ctx, app.DefaultRefundScan) })()
	defer background.Start(ctx, log, "reconciler", func(ctx context.Context) error { return svc.RunReconciler(ctx, cfg.ReconcileInterval) })()
	orders := (&events.OrdersConsumer{Cluster: cluster, Handler: svc, Log: log}).Consumer()
	defer background.Start(ctx, log, "order-events consumer", orders.Run)()

	srv, err := newServer(cfg, log, pool, tel, svc, orders.Ready) //nolint:contextcheck // Fiber gives each request its own context; a server is not built under one
	if err != nil {
		return err
	}
	return srv.ListenAndServe(ctx, cfg.HTTPAddr, cfg.ShutdownTimeout)
}

// newServer builds the HTTP server of svc: its routes, identity verification, readiness on
// the pool and the order-events consumer, and metrics.
func newServer(cfg Config, log *slog.Logger, pool *pgxpool.Pool, tel *telemetry.Telemetry, svc *app.Service, consumerReady func(context.Context) error) (*httpserver.Server, error) {
	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, identity.Gateway)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	srv := httpserver.New(httpserver.Options{
		Log:            log,
		BodyLimit:      cfg.BodyLimit,
		TrustRequestID: true,
		Ready:          []httpserver.Check{{Name: "postgres", Fn: pool.Ping}, {Name: "order-events consumer", Fn: consumerReady}},
		Metrics:        tel.MetricsHandler(),
		DrainDelay:     cfg.DrainDelay,
		RequestTimeout: cfg.RequestTimeout,
	})
	api.Register(srv.App, svc, identity.NewVerifier(identity.Checkout, keys, cfg.IdentityTokenTTL))
	return srv, nil
}
