package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/store"
	"github.com/podiumhq/podium/services/catalog/internal/api"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/cache"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// serve runs catalog: its pool, topics and relay, its consumers, the worker announcing
// date-based tier switches and the HTTP APIs.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	if cfg.InstanceID == "" {
		cfg.InstanceID = instanceID()
	}
	return service.Run(ctx, service.Service{
		Name: "catalog", Config: cfg, Base: cfg.Base, Log: log,
		Postgres: &cfg.Postgres, DBMaxConns: 10,
		Kafka: &cfg.Kafka, Topics: []string{domain.EventsTopic, domain.PlacesTopic}, Relay: true,
		HTTP: httpserver.Options{TrustRequestID: true, RequestTimeout: cfg.RequestTimeout},
		Build: func(_ context.Context, r *service.Resources) (service.Parts, error) {
			keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, callers...)
			if err != nil {
				return service.Parts{}, fmt.Errorf("config: %w", err)
			}
			views := cache.New(cfg.CacheMaxEntries, time.Now)
			svc := app.New(store.New(r.Pool), time.Now, views)
			invalidation, places := consumers(cfg, r.Cluster, log, views, svc, r.EnsureTopics)
			return service.Parts{
				Workers: []service.Worker{
					{Name: "tier switches", Run: func(ctx context.Context) error { return svc.RunTierSwitches(ctx, app.TierSwitchInterval, log) }},
				},
				Consumers: []service.Consumer{
					{Name: "cache invalidation consumer", Consumer: invalidation},
					{Name: "places consumer", Consumer: places},
				},
				Routes: func(a *fiber.App) error {
					api.Register(a, api.Deps{
						Service: svc, Cache: views, Verifier: identity.NewVerifier(identity.Catalog, keys, cfg.IdentityTokenTTL),
						OperatorToken: cfg.OperatorToken, CacheTTL: cfg.CacheTTL, PricingTTL: cfg.PricingCacheTTL, EdgeTTL: cfg.EdgeTTL,
					})
					return nil
				},
			}, nil
		},
	})
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
