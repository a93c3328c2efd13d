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

// serve runs checkout: its pool, topics and relay, the sweeper, the refund worker, the
// reconciler, the order-events consumer and the HTTP API.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	return service.Run(ctx, service.Service{
		Name: "checkout", Config: cfg, Base: cfg.Base, Log: log,
		Postgres: &cfg.Postgres, DBMaxConns: 20,
		Kafka: &cfg.Kafka, Topics: []string{domain.PaymentsTopic, domain.OrdersTopic}, Relay: true,
		HTTP: httpserver.Options{TrustRequestID: true, RequestTimeout: cfg.RequestTimeout},
		Build: func(_ context.Context, r *service.Resources) (service.Parts, error) {
			svc, verifier, err := build(cfg, r, log)
			if err != nil {
				return service.Parts{}, err
			}
			return service.Parts{
				Workers: []service.Worker{
					{Name: "sweeper", Run: func(ctx context.Context) error { return svc.RunSweeper(ctx, sweepInterval) }},
					{Name: "refund worker", Run: func(ctx context.Context) error { return svc.RunRefunder(ctx, app.DefaultRefundScan) }},
					{Name: "reconciler", Run: func(ctx context.Context) error { return svc.RunReconciler(ctx, cfg.ReconcileInterval) }},
				},
				Consumers: []service.Consumer{
					{Name: "order-events consumer", Consumer: (&events.OrdersConsumer{Cluster: r.Cluster, Handler: svc, Log: log}).Consumer()},
				},
				Routes: func(a *fiber.App) error { api.Register(a, svc, verifier); return nil },
			}, nil
		},
	})
}

// build makes the use cases over the pool, the peers and the payment provider, and the
// verifier of the callers' identity tokens.
func build(cfg Config, r *service.Resources, log *slog.Logger) (*app.Service, *identity.Verifier, error) {
	key, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
	if err != nil {
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, identity.Gateway)
	if err != nil {
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	signer := identity.NewSigner(identity.Checkout, key, cfg.IdentityTokenTTL)
	addressBackoff, keyBackoff := cfg.Backoffs()
	var testPayments app.Payments
	if cfg.StripeTestSecretKey != "" {
		testPayments = payments.New(payments.Options{SecretKey: cfg.StripeTestSecretKey, APIBase: cfg.StripeAPIBase, WebhookSecret: cfg.StripeTestWebhookSecret})
	}
	svc := app.New(store.New(r.Pool), catalog.New(cfg.CatalogURL, peerTimeout, signer), registration.New(cfg.RegistrationURL, peerTimeout, signer),
		payments.New(payments.Options{SecretKey: cfg.StripeSecretKey, APIBase: cfg.StripeAPIBase, WebhookSecret: cfg.StripeWebhookSecret}),
		log, app.Options{HoldTTL: cfg.HoldTTL, Retention: cfg.IdempotencyRetention, AddressBackoff: addressBackoff, KeyBackoff: keyBackoff,
			UnknownRetryWindow: cfg.WebhookUnknownRetryWindow, ReconcileLookback: cfg.ReconcileLookback, TestPayments: testPayments,
			RefundRetryMax: cfg.RefundRetryMax})
	return svc, identity.NewVerifier(identity.Checkout, keys, cfg.IdentityTokenTTL), nil
}
