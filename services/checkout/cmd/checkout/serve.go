package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/telemetry"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/kafka"
	chkpg "github.com/podiumhq/podium/services/checkout/internal/adapters/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/registration"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/stripe"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
	chkhttp "github.com/podiumhq/podium/services/checkout/internal/http"
)

// peerTimeout bounds a call to catalog or registration.
const peerTimeout = 5 * time.Second

// sweepInterval is how often idempotency keys and stale checkouts are swept.
const sweepInterval = time.Minute

// serve builds the dependencies in order, serves until ctx is done, and closes them in
// reverse order: the server drains (readiness failing first), then the consumer, the
// reconciler, the sweeper and the relay stop, then the broker writer, the pool and the
// telemetry providers close.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	log.Info("starting checkout", "config", config.LogValue(cfg))
	tel, err := telemetry.Setup(ctx, telemetry.Options{Service: "checkout", Endpoint: cfg.OTLPEndpoint, SampleRatio: cfg.TraceSampleRatio})
	if err != nil {
		return err
	}
	defer shutdownTelemetry(tel, log) //nolint:contextcheck // the run context has ended by then
	go func() {
		if err := telemetry.ServeProfiles(ctx, cfg.PprofAddr); err != nil {
			log.Error("profiles server failed", "err", err)
		}
	}()

	pool, err := postgres.Connect(ctx, cfg.DatabaseURL, postgres.Options{
		MaxConns: cfg.DBMaxConns, StatementTimeout: cfg.DBStatementTimeout, LockTimeout: cfg.DBLockTimeout,
		IdleInTransactionTimeout: cfg.DBIdleInTransactionTimeout,
	})
	if err != nil {
		return err
	}
	defer pool.Close()

	if err := broker.EnsureTopics(ctx, cfg.KafkaBrokers, cfg.KafkaTopicPartitions, cfg.KafkaReplicationFactor, domain.PaymentsTopic, domain.OrdersTopic); err != nil {
		return err
	}
	writer := broker.NewWriter(cfg.KafkaBrokers)
	defer writer.Close() //nolint:errcheck // pending writes are already flushed: the relay stopped

	relay := &outbox.Relay{Pool: pool, Publisher: writer, Log: log}
	defer runInBackground(ctx, relay.Run)()

	key, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	signer := identity.NewSigner(identity.Checkout, key, cfg.IdentityTokenTTL)
	addressBackoff, keyBackoff := cfg.Backoffs()
	svc := app.New(chkpg.New(pool), catalog.New(cfg.CatalogURL, peerTimeout, signer), registration.New(cfg.RegistrationURL, peerTimeout, signer),
		stripe.New(stripe.Options{SecretKey: cfg.StripeSecretKey, APIBase: cfg.StripeAPIBase, WebhookSecret: cfg.StripeWebhookSecret}),
		log, app.Options{HoldTTL: cfg.HoldTTL, Retention: cfg.IdempotencyRetention, AddressBackoff: addressBackoff, KeyBackoff: keyBackoff,
			UnknownRetryWindow: cfg.WebhookUnknownRetryWindow, ReconcileLookback: cfg.ReconcileLookback})
	defer runInBackground(ctx, func(ctx context.Context) error { return svc.RunSweeper(ctx, sweepInterval) })()
	defer runInBackground(ctx, func(ctx context.Context) error { return svc.RunReconciler(ctx, cfg.ReconcileInterval) })()
	consumer := &kafka.OrdersConsumer{Brokers: cfg.KafkaBrokers, Handler: svc, Log: log}
	defer runInBackground(ctx, restarting(log, "order-events consumer", consumer.Run))()

	srv, err := newServer(cfg, log, pool, tel, svc)
	if err != nil {
		return err
	}
	return srv.ListenAndServe(ctx, cfg.HTTPAddr, cfg.ShutdownTimeout)
}

// newServer builds the HTTP server of svc: its routes, identity verification, readiness on
// the pool and metrics.
func newServer(cfg Config, log *slog.Logger, pool *pgxpool.Pool, tel *telemetry.Telemetry, svc *app.Service) (*httpserver.Server, error) {
	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, identity.Gateway)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	srv := httpserver.New(httpserver.Options{
		Log:            log,
		BodyLimit:      cfg.BodyLimit,
		TrustRequestID: true,
		MapError:       chkhttp.MapError,
		Ready:          []httpserver.Check{{Name: "postgres", Fn: pool.Ping}},
		Metrics:        tel.MetricsHandler(),
		DrainDelay:     cfg.DrainDelay,
		RequestTimeout: cfg.RequestTimeout,
	})
	chkhttp.Register(srv.App, svc, identity.NewVerifier(identity.Checkout, keys, cfg.IdentityTokenTTL))
	return srv, nil
}

// runInBackground runs fn on a context that outlives ctx's cancellation, so background work
// continues while the server drains; the returned function stops it and waits for it.
func runInBackground(ctx context.Context, fn func(context.Context) error) (stop func()) {
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = fn(bg) // each logs its own failures and returns only when stopped
	}()
	return func() {
		cancel()
		<-done
	}
}

// restarting runs fn again a second after it fails, until ctx is done.
func restarting(log *slog.Logger, name string, fn func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		for ctx.Err() == nil {
			if err := fn(ctx); err != nil && ctx.Err() == nil {
				log.ErrorContext(ctx, name+" failed; restarting", "err", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
		return nil
	}
}

func shutdownTelemetry(tel *telemetry.Telemetry, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tel.Shutdown(ctx); err != nil {
		log.Warn("telemetry shutdown failed", "err", err)
	}
}
