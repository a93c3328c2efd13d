package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/api"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// serve runs auth: its pool, the key events' topic and the relay, the key-use flusher (which
// writes the last use of each key in batches, and once more after the servers drained), the
// console (with its clients of the webhooks and registration services) and the HTTP APIs.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	ccfg, err := consoleConfig(cfg)
	if err != nil {
		return err
	}
	return service.Run(ctx, service.Service{
		Name: "auth", Config: cfg, Base: cfg.Base, Log: log,
		Postgres: &cfg.Postgres, DBMaxConns: defaultDBMaxConns,
		Kafka: &cfg.Kafka, Topics: []string{domain.KeysTopic}, Relay: true,
		HTTP: httpserver.Options{TrustRequestID: true, RequestTimeout: cfg.RequestTimeout},
		Build: func(ctx context.Context, r *service.Resources) (service.Parts, error) {
			keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, callers...)
			if err != nil {
				return service.Parts{}, fmt.Errorf("config: %w", err)
			}
			clients, err := consolePeers(cfg, log)
			if err != nil {
				return service.Parts{}, err
			}
			svc := app.New(store.New(r.Pool), time.Now)
			console, janitor, err := consoleParts(ctx, cfg, ccfg, r, clients)
			if err != nil {
				return service.Parts{}, err
			}
			return service.Parts{
				Workers: []service.Worker{
					{Name: "key-use flusher", Run: func(ctx context.Context) error { return svc.RunKeyUseFlusher(ctx, cfg.KeyUseFlushInterval, log) }},
					janitor,
				},
				Listeners: []service.Listener{console},
				Routes: func(a *fiber.App) error {
					api.Register(a, api.Deps{
						Service: svc, Console: newConsole(cfg, ccfg, log, svc, r.Pool, peers{}), OperatorToken: cfg.OperatorToken,
						Verifier: identity.NewVerifier(identity.Auth, keys, cfg.IdentityTokenTTL),
					})
					return nil
				},
			}, nil
		},
	})
}
