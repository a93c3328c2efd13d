package authtest

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/adapters/registration"
	"github.com/podiumhq/podium/services/auth/internal/adapters/store"
	"github.com/podiumhq/podium/services/auth/internal/adapters/webhooks"
	"github.com/podiumhq/podium/services/auth/internal/app"
	"github.com/podiumhq/podium/services/auth/internal/console"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// startConsole serves the console on its own listener and pool, sending mail to a catcher and
// calling the webhooks and registration doubles (Env.Webhooks, Env.Registration), and
// returns the console's use cases on the API's pool, which make the admin API's operator links.
// Requests from 127.0.0.1 may name the client in X-Forwarded-For, so tests can call from
// several addresses.
func (e *Env) startConsole(t testing.TB, o Options, log *slog.Logger) *app.Console {
	t.Helper()
	catcher, err := mailcatch.Start("127.0.0.1:0", mailcatch.Options{Now: e.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = catcher.Close() })
	host, port, _ := net.SplitHostPort(catcher.Addr())
	smtpPort, _ := strconv.Atoi(port)
	sender := mail.NewSender(config.SMTP{SMTPHost: host, SMTPPort: smtpPort, SMTPFrom: "Podium <no-reply@podium.test>"}, 0)

	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.ConsoleURL = "http://localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	e.Mail = catcher
	cfg := app.ConsoleConfig{
		URL: e.ConsoleURL, LinkTTL: SignInLinkTTL, SessionTTL: orDefault(o.SessionTTL, SessionTTL), Window: SignInWindow,
		Limits: domain.SignInLimits{
			PerBrowser: orDefault(o.SignInPerBrowser, 3), PerEmail: orDefault(o.SignInPerEmail, 5), PerNetwork: orDefault(o.SignInPerAddress, 20),
		},
		SignInRequestsPerMinute: orDefault(o.SignInRequestsPerMinute, 20), DBConns: int(e.ConsolePool.Config().MaxConns),
		CookieKey: []byte(CookieKey),
	}
	e.Webhooks = startWebhooks(t, e.Issuers, e.Clock)
	hooks := webhooks.New(e.Webhooks.URL, orDefault(o.WebhooksTimeout, defaultWebhooksTimeout), e.Issuers.Signer(identity.Auth), log)
	e.Registration = startRegistration(t, e.Issuers)
	reg := registration.New(e.Registration.URL, orDefault(o.WebhooksTimeout, defaultWebhooksTimeout), e.Issuers.Signer(identity.Auth), log)
	e.Console = app.NewConsole(app.New(store.New(e.ConsolePool), e.Clock.Now), store.New(e.ConsolePool), sender, hooks, reg, cfg, log)
	t.Cleanup(e.Console.Close)
	resolver, err := clientip.New([]string{"127.0.0.1/32"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httpserver.New(httpserver.Options{Log: log, BodyLimit: 64 << 10, NoProbes: true, WriteError: console.WriteError})
	console.Register(srv.App, console.Deps{
		Console: e.Console, ClientIP: resolver, URL: e.ConsoleURL, LinkTTL: SignInLinkTTL,
	})
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, 5*time.Second) })
	return app.NewConsole(e.Service, store.New(e.Pool), sender, nil, nil, cfg, log)
}

// defaultWebhooksTimeout bounds the console's calls to the webhooks double unless a test sets
// Options.WebhooksTimeout.
const defaultWebhooksTimeout = 5 * time.Second

func orDefault[T int | int32 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}
