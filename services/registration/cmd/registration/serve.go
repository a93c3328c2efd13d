package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/background"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	smtpmail "github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/libs/telemetry"
	"github.com/podiumhq/podium/services/registration/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/mail"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/api"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// catalogTimeout bounds a read of an event from the catalog, below the request deadline: the
// read is shared by every request waiting for that event, whichever of them gives up.
const catalogTimeout = 5 * time.Second

// serve builds the dependencies in order, serves until ctx is done, and closes them in
// reverse order: the server drains (readiness failing first), then the background workers
// stop (the relay last, so changes made while draining are still published), then the broker
// writer, the pool and the telemetry providers close.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	log.Info("starting registration", "config", config.LogValue(cfg))
	tel, err := service.Observe(ctx, "registration", cfg.Base, log)
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
	if err := broker.EnsureTopics(ctx, cluster, cfg.KafkaTopicPartitions, cfg.KafkaReplicationFactor,
		domain.PlacesTopic, domain.OrdersTopic, domain.PaymentsTopic); err != nil {
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
	signer := identity.NewSigner(identity.Registration, key, cfg.IdentityTokenTTL)
	repo := store.New(pool)
	catalogPeer := peer.New(peer.Options{Name: identity.Catalog, BaseURL: cfg.CatalogURL, Timeout: catalogTimeout, Signer: signer})
	svc := app.New(repo, catalog.New(catalogPeer, cfg.CatalogCacheTTL), time.Now, cfg.AppOptions())
	mailer := &mail.Worker{Store: repo, Log: log, Sender: smtpmail.NewSender(cfg.SMTP, 0)}
	defer background.Start(ctx, log, "mail worker", mailer.Run)()
	defer background.Start(ctx, log, "hold sweeper", func(ctx context.Context) error { return svc.RunSweeper(ctx, cfg.HoldSweepInterval, log) })()
	payments := events.Consumer(cluster, svc, log, nil)
	defer background.Start(ctx, log, "payments consumer", payments.Run)()

	srv, err := newServer(cfg, log, pool, tel, svc, payments.Ready)
	if err != nil {
		return err
	}
	return srv.ListenAndServe(ctx, cfg.HTTPAddr, cfg.ShutdownTimeout)
}

// newServer builds the HTTP server of svc: its routes, identity verification, request
// validation, readiness on the pool and the payments consumer, and metrics.
func newServer(cfg Config, log *slog.Logger, pool *pgxpool.Pool, tel *telemetry.Telemetry, svc *app.Service, consumerReady func(context.Context) error) (*httpserver.Server, error) {
	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, callers...)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	validator, err := apispec.NewValidator()
	if err != nil {
		return nil, err
	}
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: cfg.BodyLimit, TrustRequestID: true,
		Ready:   []httpserver.Check{{Name: "postgres", Fn: pool.Ping}, {Name: "payments consumer", Fn: consumerReady}},
		Metrics: tel.MetricsHandler(), DrainDelay: cfg.DrainDelay, RequestTimeout: cfg.RequestTimeout,
	})
	api.Register(srv.App, api.Deps{Service: svc, Verifier: identity.NewVerifier(identity.Registration, keys, cfg.IdentityTokenTTL), Validator: validator})
	return srv, nil
}
