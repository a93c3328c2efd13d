// Command checkout serves the checkout capability of the external API behind the gateway.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/telemetry"
	svchttp "github.com/podiumhq/podium/services/checkout/internal/http"
)

// Config is every setting of the service.
type Config struct {
	config.Base
	IdentityPublicKeys string        `env:"IDENTITY_PUBLIC_KEYS,notEmpty"`
	IdentityTokenTTL   time.Duration `env:"IDENTITY_TOKEN_TTL" envDefault:"60s"`
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "checkout:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	cfg, err := config.Load[Config]()
	if err != nil {
		return err
	}
	log := logging.New("checkout", cfg.LogLevel)
	log.Info("starting", "config", config.LogValue(cfg))
	tel, err := telemetry.Setup(ctx, telemetry.Options{Service: "checkout", Endpoint: cfg.OTLPEndpoint, SampleRatio: cfg.TraceSampleRatio})
	if err != nil {
		return err
	}
	defer func() { //nolint:contextcheck // the run context has ended by now; flushing needs its own
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tel.Shutdown(ctx)
	}()
	keys, err := identity.ParsePublicKeys(cfg.IdentityPublicKeys)
	if err != nil {
		return err
	}
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: cfg.BodyLimit, TrustRequestID: true, Metrics: tel.MetricsHandler(), DrainDelay: cfg.DrainDelay,
	})
	svchttp.Register(srv.App, identity.NewVerifier(keys, cfg.IdentityTokenTTL))
	return srv.ListenAndServe(ctx, cfg.HTTPAddr, cfg.ShutdownTimeout)
}
