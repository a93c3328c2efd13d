package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/auth/internal/adapters/registration"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/adapters/webhooks"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/console"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// janitorInterval is how often expired sign-in links, sessions and remembered browsers are
// deleted.
const janitorInterval = 10 * time.Minute

// consoleParts are the organizers' console, configured by ccfg: its listener on CONSOLE_ADDR
// and its janitor, on a pool of its own so that nothing its visitors do takes a connection of
// the APIs'. The pool closes, and the e-mails being sent are waited for, after they stopped.
func consoleParts(ctx context.Context, cfg Config, ccfg app.ConsoleConfig, r *service.Resources, p peers) (service.Listener, service.Worker, error) {
	resolver, err := clientip.New(cfg.ConsoleTrustedProxies)
	if err != nil {
		return service.Listener{}, service.Worker{}, err
	}
	pool, err := postgres.Open(ctx, cfg.consolePostgres(), cfg.ConsoleDBMaxConns)
	if err != nil {
		return service.Listener{}, service.Worker{}, err
	}
	r.OnClose(pool.Close)
	c := newConsole(cfg, ccfg, r.Log, app.New(store.New(pool), time.Now), pool, p)
	r.OnClose(c.Close)
	srv := httpserver.New(httpserver.Options{
		Log: r.Log, BodyLimit: 64 << 10, NoProbes: true, WriteError: console.WriteError,
		DrainDelay: cfg.DrainDelay, RequestTimeout: 10 * time.Second,
	})
	console.Register(srv.App, console.Deps{Console: c, ClientIP: resolver, URL: ccfg.URL, LinkTTL: cfg.SignInLinkTTL})
	janitor := service.Worker{Name: "console janitor", Run: func(ctx context.Context) error { return c.RunJanitor(ctx, janitorInterval) }}
	return service.Listener{Name: "console", Addr: cfg.ConsoleAddr, Server: srv}, janitor, nil
}

// consoleConfig is the console's configuration.
func consoleConfig(cfg Config) (app.ConsoleConfig, error) {
	u, err := consoleURL(cfg.ConsoleURL)
	if err != nil {
		return app.ConsoleConfig{}, err
	}
	return app.ConsoleConfig{
		URL: strings.TrimSuffix(u.String(), "/"), LinkTTL: cfg.SignInLinkTTL, SessionTTL: cfg.SessionTTL, Window: cfg.SignInWindow,
		Limits:                  domain.SignInLimits{PerBrowser: cfg.SignInPerBrowser, PerEmail: cfg.SignInPerEmail, PerNetwork: cfg.SignInPerAddress},
		SignInRequestsPerMinute: cfg.SignInRequestsPerMinute, DBConns: int(cfg.ConsoleDBMaxConns),
		CookieKey: []byte(cfg.ConsoleCookieKey),
	}, nil
}

// peers are the services the console calls.
type peers struct {
	hooks app.Webhooks
	reg   app.Registration
}

// newConsole returns the console's use cases over svc and pool: the console's own, with its
// peers, or, for the operators' sign-in links of the admin API, the API's, with none.
func newConsole(cfg Config, ccfg app.ConsoleConfig, log *slog.Logger, svc *app.Service, pool *pgxpool.Pool, p peers) *app.Console {
	return app.NewConsole(svc, store.New(pool), mail.NewSender(cfg.SMTP, 0), p.hooks, p.reg, ccfg, log)
}

// consolePeers are the console's clients of the webhooks and registration services, whose
// tokens auth signs.
func consolePeers(cfg Config, log *slog.Logger) (peers, error) {
	key, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
	if err != nil {
		return peers{}, fmt.Errorf("config: %w", err)
	}
	signer := identity.NewSigner(identity.Auth, key, cfg.IdentityTokenTTL)
	return peers{
		hooks: webhooks.New(cfg.WebhooksURL, cfg.WebhooksTimeout, signer, log),
		reg:   registration.New(cfg.RegistrationURL, cfg.RegistrationTimeout, signer, log),
	}, nil
}
