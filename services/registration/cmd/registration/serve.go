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
	smtpmail "github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/registration/internal/adapters/catalog"
	"github.com/podiumhq/podium/services/registration/internal/adapters/events"
	"github.com/podiumhq/podium/services/registration/internal/adapters/mail"
	"github.com/podiumhq/podium/services/registration/internal/adapters/peers"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store"
	"github.com/podiumhq/podium/services/registration/internal/api"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// catalogTimeout bounds a read of an event from the catalog, below the request deadline: the
// read is shared by every request waiting for that event, whichever of them gives up.
const catalogTimeout = 5 * time.Second

// peerTimeout bounds a call to checkout or the webhooks service deleting test data.
const peerTimeout = 5 * time.Second

// serve runs registration: its pool, topics and relay (which stops after the other parts, so
// changes made while draining are still published), the mail worker, the hold sweeper, the
// payments consumer and the HTTP API.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	return service.Run(ctx, service.Service{
		Name: "registration", Config: cfg, Base: cfg.Base, Log: log,
		Postgres: &cfg.Postgres, DBMaxConns: 20,
		Kafka: &cfg.Kafka, Topics: []string{domain.PlacesTopic, domain.OrdersTopic, domain.RegistrationsTopic, domain.PaymentsTopic, domain.WaitlistTopic}, Relay: true,
		HTTP: httpserver.Options{TrustRequestID: true, RequestTimeout: cfg.RequestTimeout},
		Build: func(_ context.Context, r *service.Resources) (service.Parts, error) {
			key, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
			if err != nil {
				return service.Parts{}, fmt.Errorf("config: %w", err)
			}
			keys, err := identity.ParseTrustedKeys(cfg.IdentityTrustedKeys, callers...)
			if err != nil {
				return service.Parts{}, fmt.Errorf("config: %w", err)
			}
			validator, err := apispec.NewValidator()
			if err != nil {
				return service.Parts{}, err
			}
			signer := identity.NewSigner(identity.Registration, key, cfg.IdentityTokenTTL)
			repo := store.New(r.Pool)
			catalogPeer := peer.New(peer.Options{Name: identity.Catalog, BaseURL: cfg.CatalogURL, Timeout: catalogTimeout, Signer: signer})
			svc := app.New(repo, catalog.New(catalogPeer, cfg.CatalogCacheTTL), time.Now, cfg.AppOptions())
			if cfg.WaitlistClockShiftFile != "" {
				svc.SetWaitlistClock(clock.Shifted(time.Now, cfg.WaitlistClockShiftFile))
			}
			svc.SetTestDataPeers(
				peers.NewTestData(identity.Checkout, cfg.CheckoutURL, signer, peerTimeout),
				peers.NewTestData(identity.Webhooks, cfg.WebhooksURL, signer, peerTimeout),
			)
			mailer := &mail.Worker{Store: repo, Log: log, Sender: smtpmail.NewSender(cfg.SMTP, 0)}
			verifier := identity.NewVerifier(identity.Registration, keys, cfg.IdentityTokenTTL)
			return service.Parts{
				Workers: []service.Worker{
					{Name: "mail worker", Run: mailer.Run},
					{Name: "hold sweeper", Run: func(ctx context.Context) error { return svc.RunSweeper(ctx, cfg.HoldSweepInterval, log) }},
					{Name: "waitlist worker", Run: func(ctx context.Context) error { return svc.RunWaitlist(ctx, cfg.HoldSweepInterval, log) }},
				},
				Consumers: []service.Consumer{{Name: "payments consumer", Consumer: events.Consumer(r.Cluster, svc, log, nil)}},
				Routes: func(a *fiber.App) error {
					api.Register(a, api.Deps{Service: svc, Verifier: verifier, Validator: validator})
					return nil
				},
			}, nil
		},
	})
}
