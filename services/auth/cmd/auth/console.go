package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/libs/background"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/console"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// janitorInterval is how often expired sign-in links, sessions and remembered browsers are
// deleted.
const janitorInterval = 10 * time.Minute

// runningConsole is the console's server and janitor, running until Close.
type runningConsole struct {
	*app.Console
	cancel      context.CancelFunc
	served      chan struct{}
	stopJanitor func()
}

// startConsole serves the organizers' console, configured by ccfg, on CONSOLE_ADDR until ctx
// ends, on its own pool.
func startConsole(ctx context.Context, cfg Config, ccfg app.ConsoleConfig, log *slog.Logger, pool *pgxpool.Pool) (*runningConsole, error) {
	resolver, err := clientip.New(cfg.ConsoleTrustedProxies)
	if err != nil {
		return nil, err
	}
	c := newConsole(cfg, ccfg, log, app.New(store.New(pool), time.Now), pool)
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: 64 << 10, NoProbes: true, WriteError: console.WriteError,
		DrainDelay: cfg.DrainDelay, RequestTimeout: 10 * time.Second,
	})
	console.Register(srv.App, console.Deps{
		Console: c, ClientIP: resolver, URL: ccfg.URL, LinkTTL: cfg.SignInLinkTTL,
	})
	// Listening here makes a taken port fail the start; the console then drains alongside the
	// APIs when ctx ends.
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", cfg.ConsoleAddr)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	serveCtx, cancel := context.WithCancel(ctx)
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(serveCtx, ln, cfg.ShutdownTimeout); err != nil {
			log.Error("console server stopped", "err", err)
		}
	}()
	stopJanitor := background.Start(ctx, log, "console janitor", func(bg context.Context) error { return c.RunJanitor(bg, janitorInterval) })
	return &runningConsole{Console: c, cancel: cancel, served: served, stopJanitor: stopJanitor}, nil
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

// newConsole returns the console's use cases over svc and pool: the console's own, or, for the
// operators' sign-in links of the admin API, the API's.
func newConsole(cfg Config, ccfg app.ConsoleConfig, log *slog.Logger, svc *app.Service, pool *pgxpool.Pool) *app.Console {
	return app.NewConsole(svc, store.New(pool), mail.NewSender(cfg.SMTP, 0), ccfg, log)
}

// Close stops the server (by then the APIs have drained, or failed) and the janitor, and waits
// for the e-mails being sent.
func (r *runningConsole) Close() {
	r.cancel()
	<-r.served
	r.stopJanitor()
	r.Console.Close()
}
