package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/auth"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/events"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/api"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// Intervals of the background work.
const (
	sweepInterval  = time.Hour
	notifyInterval = time.Minute
	// authTimeout bounds a call to auth; mailTimeout one mail.
	authTimeout = 5 * time.Second
	mailTimeout = 10 * time.Second
)

// dbMaxConns is the pool's default size: an attempt holds a connection only to claim and to
// record, never while its request runs, so the pool does not grow with DELIVERY_WORKERS.
const dbMaxConns = 20

// parts are what serve runs beside the HTTP API.
type parts struct {
	svc      *app.Service
	repo     *store.Repository
	sealer   *domain.Sealer
	verifier *identity.Verifier
	// validator checks request bodies against the OpenAPI document.
	validator *apispec.Validator
	notifier  *app.Notifier
	// clock is the one clock of every decision: the system's, or shifted for a fault test.
	clock clock.Clock
	// wake tells the dispatcher that deliveries are due.
	wake chan struct{}
}

// serve runs webhooks: its pool, the consumed topics, the consumer, the dispatcher, the
// notifier, the sweeper and the HTTP API.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	return service.Run(ctx, service.Service{
		Name: "webhooks", Config: cfg, Base: cfg.Base, Log: log,
		Postgres: &cfg.Postgres, DBMaxConns: dbMaxConns,
		Kafka: &cfg.Kafka, Topics: domain.Topics,
		HTTP: httpserver.Options{TrustRequestID: true, RequestTimeout: cfg.RequestTimeout},
		Build: func(_ context.Context, r *service.Resources) (service.Parts, error) {
			p, err := build(cfg, r, log)
			if err != nil {
				return service.Parts{}, err
			}
			return service.Parts{
				Workers: append(dispatchers(cfg, r, p, log),
					service.Worker{Name: "notifier", Run: p.notifier.Run},
					service.Worker{Name: "sweeper", Run: func(ctx context.Context) error { return p.svc.RunSweeper(ctx, sweepInterval) }},
				),
				Consumers: []service.Consumer{
					{Name: "events consumer", Consumer: (&events.Consumer{Cluster: r.Cluster, Service: p.svc, Log: log}).Consumer()},
				},
				Routes: func(a *fiber.App) error {
					api.Register(a, api.Deps{Service: p.svc, Verifier: p.verifier, Validator: p.validator})
					return nil
				},
			}, nil
		},
	})
}

// build makes the use cases over the pool, the secrets' sealer, the verifier of the callers'
// tokens, the validator of the request bodies and the notifier with its client of auth.
func build(cfg Config, r *service.Resources, log *slog.Logger) (parts, error) {
	key, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
	if err != nil {
		return parts{}, fmt.Errorf("config: %w", err)
	}
	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, callers...)
	if err != nil {
		return parts{}, fmt.Errorf("config: %w", err)
	}
	secretsKey, err := domain.ParseSecretsKey(cfg.SecretsKey)
	if err != nil {
		return parts{}, fmt.Errorf("config: SECRETS_KEY %w", err)
	}
	sealer, err := domain.NewSealer(secretsKey)
	if err != nil {
		return parts{}, fmt.Errorf("config: %w", err)
	}
	validator, err := apispec.NewValidator()
	if err != nil {
		return parts{}, err
	}
	p := parts{repo: store.New(r.Pool), sealer: sealer, wake: make(chan struct{}, 1), validator: validator,
		verifier: identity.NewVerifier(identity.Webhooks, keys, cfg.IdentityTokenTTL)}
	p.clock = cfg.clock()
	p.svc = app.New(p.repo, sealer, p.clock, log, app.Options{
		Rules: domain.Rules{AllowLoopback: cfg.AllowLoopbackReceivers}, MaxEndpoints: cfg.MaxEndpoints, Retention: cfg.Retention, Wake: p.wake,
	})
	signer := identity.NewSigner(identity.Webhooks, key, cfg.IdentityTokenTTL)
	p.notifier = &app.Notifier{
		Service:  p.svc,
		Contacts: auth.New(peer.New(peer.Options{Name: identity.Auth, BaseURL: cfg.AuthURL, Timeout: authTimeout, Signer: signer})),
		Sender:   mail.NewSender(cfg.SMTP, mailTimeout),
		Poll:     notifyInterval,
	}
	return p, nil
}

// clock is the system clock, shifted by CLOCK_SHIFT_FILE when that is set.
func (c Config) clock() clock.Clock {
	if c.ClockShiftFile == "" {
		return time.Now
	}
	return clock.Shifted(time.Now, c.ClockShiftFile)
}
