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
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/store"
	"github.com/podiumhq/podium/services/catalog/internal/api"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/cache"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// serve builds the dependencies in order, serves until ctx is done, and closes them in
// reverse order: the server drains (readiness failing first), then the consumers and the
// relay stop, then the broker writer, the pool and the telemetry providers close.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	if cfg.InstanceID == "" {
		cfg.InstanceID = instanceID()
	}
	log.Info("starting catalog", "config", config.LogValue(cfg))
	tel, err := service.Observe(ctx, "catalog", cfg.Base, log)
	if err != nil {
		return err
	}
	defer tel.Close(log) //nolint:contextcheck // the run context has ended by then

	pool, err := postgres.Open(ctx, cfg.Postgres, 10)
	if err != nil {
		return err
	}
	defer pool.Close()

	cluster, err := broker.NewCluster(cfg.Kafka)
	if err != nil {
		return err
	}
	ensureTopics := func(ctx context.Context) error {
		return broker.EnsureTopics(ctx, cluster, cfg.KafkaTopicPartitions, cfg.KafkaReplicationFactor, domain.EventsTopic, domain.PlacesTopic)
	}
	if err := ensureTopics(ctx); err != nil {
		return err
	}
	writer := broker.NewWriter(cluster)
	defer writer.Close() //nolint:errcheck // pending writes are already flushed: the relay stopped

	relay := &outbox.Relay{Pool: pool, Publisher: writer, Log: log}
	stopRelay := background.Start(ctx, log, "outbox relay", relay.Run)
	defer stopRelay()

	views := cache.New(cfg.CacheMaxEntries, time.Now)
	svc := app.New(store.New(pool), time.Now, views)
	invalidation, places := consumers(cfg, cluster, log, views, svc, ensureTopics)
	stopInvalidation := background.Start(ctx, log, "cache invalidation consumer", invalidation.Run)
	defer stopInvalidation()
	stopPlaces := background.Start(ctx, log, "places consumer", places.Run)
	defer stopPlaces()

	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, callers...)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: cfg.BodyLimit, TrustRequestID: true,
		Ready: []httpserver.Check{
			{Name: "postgres", Fn: pool.Ping},
			{Name: "cache invalidation consumer", Fn: invalidation.Ready},
		},
		Metrics: tel.MetricsHandler(), DrainDelay: cfg.DrainDelay, RequestTimeout: cfg.RequestTimeout,
	})
	api.Register(srv.App, api.Deps{
		Service: svc, Cache: views, Verifier: identity.NewVerifier(identity.Catalog, keys, cfg.IdentityTokenTTL),
		OperatorToken: cfg.OperatorToken, CacheTTL: cfg.CacheTTL, PricingTTL: cfg.PricingCacheTTL,
		EdgeTTL: cfg.EdgeTTL,
	})
	return srv.ListenAndServe(ctx, cfg.HTTPAddr, cfg.ShutdownTimeout)
}

// consumers are the cache invalidation consumer (a group per instance, so every instance drops
// its own cached views) and the places consumer (one group, feeding the pricing counts).
func consumers(cfg Config, cluster broker.Cluster, log *slog.Logger, views *cache.Cache, svc *app.Service, ensureTopics func(context.Context) error) (invalidation, places *broker.Consumer) {
	invalidation = &broker.Consumer{
		Config:  broker.ConsumerConfig{Cluster: cluster, Group: events.CacheGroup(cfg.InstanceID), Topics: []string{domain.EventsTopic}, Log: log},
		Handler: events.ChangesHandler(views), Topics: ensureTopics, Log: log,
	}
	places = &broker.Consumer{
		Config:  broker.ConsumerConfig{Cluster: cluster, Group: events.PlacesGroup, Topics: []string{domain.PlacesTopic}, Log: log},
		Handler: events.PlacesHandler(svc, log), Topics: ensureTopics, Log: log,
	}
	return invalidation, places
}
