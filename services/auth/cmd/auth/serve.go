package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/podiumhq/podium/libs/background"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/api"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// serve builds the dependencies in order, serves until ctx is done, and closes them in
// reverse order: the server drains (readiness failing first), then the relay stops, then the
// broker writer, the pools and the telemetry providers close. The console has a pool of its
// own, so that nothing its visitors do takes a connection of the APIs'.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	log.Info("starting auth", "config", config.LogValue(cfg))
	tel, err := service.Observe(ctx, "auth", cfg.Base, log)
	if err != nil {
		return err
	}
	defer tel.Close(log) //nolint:contextcheck // the run context has ended by then

	pool, err := postgres.Open(ctx, cfg.Postgres, defaultDBMaxConns)
	if err != nil {
		return err
	}
	defer pool.Close()
	consolePool, err := postgres.Open(ctx, cfg.consolePostgres(), cfg.ConsoleDBMaxConns)
	if err != nil {
		return err
	}
	defer consolePool.Close()

	cluster, err := broker.NewCluster(cfg.Kafka)
	if err != nil {
		return err
	}
	if err := broker.EnsureTopics(ctx, cluster, cfg.KafkaTopicPartitions, cfg.KafkaReplicationFactor, domain.KeysTopic); err != nil {
		return err
	}
	writer := broker.NewWriter(cluster)
	defer writer.Close() //nolint:errcheck // pending writes are already flushed: the relay stopped

	relay := &outbox.Relay{Pool: pool, Publisher: writer, Log: log}
	stopRelay := background.Start(ctx, log, "outbox relay", relay.Run)
	defer stopRelay()

	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, identity.Gateway)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	// Verifications only read; the last use of each key is written in batches, and once more
	// after the server has drained (deferred calls run in reverse order).
	svc := app.New(store.New(pool), time.Now)
	stopFlusher := background.Start(ctx, log, "key-use flusher", func(bg context.Context) error {
		return svc.RunKeyUseFlusher(bg, cfg.KeyUseFlushInterval, log)
	})
	defer stopFlusher()

	srv := httpserver.New(httpserver.Options{
		Log:            log,
		BodyLimit:      cfg.BodyLimit,
		TrustRequestID: true,
		Ready:          []httpserver.Check{{Name: "postgres", Fn: pool.Ping}},
		Metrics:        tel.MetricsHandler(),
		DrainDelay:     cfg.DrainDelay,
		RequestTimeout: cfg.RequestTimeout,
	})
	ccfg, err := consoleConfig(cfg)
	if err != nil {
		return err
	}
	con, err := startConsole(ctx, cfg, ccfg, log, consolePool)
	if err != nil {
		return err
	}
	defer con.Close()
	api.Register(srv.App, api.Deps{
		Service:       svc,
		Console:       newConsole(cfg, ccfg, log, svc, pool),
		OperatorToken: cfg.OperatorToken,
		Verifier:      identity.NewVerifier(identity.Auth, keys, cfg.IdentityTokenTTL),
	})
	return srv.ListenAndServe(ctx, cfg.HTTPAddr, cfg.ShutdownTimeout)
}
