package main

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/identity"
)

// minOperatorTokenLen is the shortest operator token accepted, minCookieKeyLen the shortest
// console cookie key, in bytes.
const (
	minOperatorTokenLen = 32
	minCookieKeyLen     = 32
)

// defaultDBMaxConns is the pool's size when DB_MAX_CONNS sets none.
const defaultDBMaxConns = 10

// callers are the services whose tokens auth's internal routes accept: the gateway (key and
// origin look-ups) and the webhooks service (an organization's contacts). It must trust a key
// of each.
var callers = []string{identity.Gateway, identity.Webhooks}

// Config is the configuration of `auth serve` and `auth migrate`.
type Config struct {
	config.Base
	config.Postgres
	config.Kafka
	// OperatorToken guards the admin API.
	OperatorToken string `env:"AUTH_OPERATOR_TOKEN,notEmpty" secret:"true"`
	// SigningIdentity trusts the keys of the callers and signs the console's calls to the
	// webhooks service.
	config.SigningIdentity
	// KeyUseFlushInterval is how often the keys' last uses, kept in memory by verification,
	// are written in one batch.
	KeyUseFlushInterval time.Duration `env:"KEY_USE_FLUSH_INTERVAL" envDefault:"5s"`
	// RequestTimeout is each request's deadline; a request that runs out of time answers 503.
	// It matches the gateway's AUTH_TIMEOUT, so a key lookup the gateway stopped waiting for
	// stops holding a database connection too.
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"2s"`
	Console
}

// Console configures the organizers' console, served on its own listener.
type Console struct {
	config.SMTP
	// WebhooksURL is the webhooks service's internal API, which the console's Webhooks tab
	// calls for the signed-in member's organization.
	WebhooksURL string `env:"WEBHOOKS_URL" envDefault:"http://127.0.0.1:8085"`
	// WebhooksTimeout bounds each of those calls: past it the tab says webhooks are
	// unavailable, and the rest of the console is unaffected.
	WebhooksTimeout time.Duration `env:"WEBHOOKS_TIMEOUT" envDefault:"3s"`
	// RegistrationURL is the registration service's internal API, which the console's
	// test-data tools (delete test data, test mail) call in test mode.
	RegistrationURL string `env:"REGISTRATION_URL" envDefault:"http://127.0.0.1:8083"`
	// RegistrationTimeout bounds each of those calls (a wipe deletes in three services).
	RegistrationTimeout time.Duration `env:"REGISTRATION_TIMEOUT" envDefault:"5s"`
	// ConsoleAddr is the listen address of the console.
	ConsoleAddr string `env:"CONSOLE_ADDR" envDefault:":8090"`
	// ConsoleURL is the console's public address, as sign-in links name it: https, or http for
	// a local host.
	ConsoleURL string `env:"CONSOLE_URL,notEmpty"`
	// ConsoleCookieKey signs the markers the console gives the browsers that signed in, which
	// let them through their network's sign-in rate (app.Console.KnownBrowserMarker): random,
	// shared by every instance.
	ConsoleCookieKey string `env:"CONSOLE_COOKIE_KEY,notEmpty" secret:"true"`
	// ConsoleTrustedProxies are the networks (CIDRs or addresses) of the proxies in front of the
	// console, whose X-Forwarded-For is believed: the ingress controller's.
	ConsoleTrustedProxies []string `env:"CONSOLE_TRUSTED_PROXIES" envSeparator:","`
	// SignInLinkTTL is how long an e-mailed sign-in link stays valid.
	SignInLinkTTL time.Duration `env:"CONSOLE_SIGNIN_LINK_TTL" envDefault:"15m"`
	// SessionTTL is how long a console session lasts after sign-in.
	SessionTTL time.Duration `env:"CONSOLE_SESSION_TTL" envDefault:"12h"`
	// SignInWindow is the window of the sign-in limits (domain.SignInLimits).
	SignInWindow time.Duration `env:"CONSOLE_SIGNIN_WINDOW" envDefault:"15m"`
	// SignInPerBrowser bounds the sign-in links one browser asks for one e-mail address in a
	// window.
	SignInPerBrowser int `env:"CONSOLE_SIGNIN_PER_BROWSER" envDefault:"3"`
	// SignInPerEmail bounds the sign-in links asked for one e-mail address in a window by
	// browsers that never signed in as it.
	SignInPerEmail int `env:"CONSOLE_SIGNIN_PER_EMAIL" envDefault:"5"`
	// SignInPerAddress bounds the sign-in links asked from one client network (an IPv4
	// address, an IPv6 /64) in a window by browsers that never signed in as the address asked.
	SignInPerAddress int `env:"CONSOLE_SIGNIN_PER_ADDRESS" envDefault:"20"`
	// SignInRequestsPerMinute bounds the sign-in requests (asking for, opening and using links)
	// one client network makes a minute to one instance, in bursts of as many; past it a
	// request is refused before any database work.
	SignInRequestsPerMinute int `env:"CONSOLE_SIGNIN_REQUESTS_PER_MINUTE" envDefault:"20"`
	// ConsoleDBMaxConns is the size of the console's own pool, apart from the one of the APIs
	// (DB_MAX_CONNS): nothing the console's visitors do takes a connection key verification or
	// the admin API needs. A console request that finds them all taken for a moment is answered
	// 503.
	ConsoleDBMaxConns int32 `env:"CONSOLE_DB_MAX_CONNS" envDefault:"4"`
}

// Validate reports every problem in the configuration.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Postgres.Validate(), c.Kafka.Validate(), c.Identity.Validate(), c.SigningIdentity.Validate(), c.Console.Validate()}
	if len(c.OperatorToken) < minOperatorTokenLen {
		errs = append(errs, fmt.Errorf("AUTH_OPERATOR_TOKEN must be at least %d characters", minOperatorTokenLen))
	}
	if _, err := identity.ParseTrustedKeys(c.IdentityTrustedKeys, callers...); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_TRUSTED_KEYS: %w", err))
	}
	if _, err := identity.ParsePrivateKey(c.IdentityPrivateKey); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_PRIVATE_KEY: %w", err))
	}
	if c.KeyUseFlushInterval <= 0 {
		errs = append(errs, errors.New("KEY_USE_FLUSH_INTERVAL must be positive"))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("REQUEST_TIMEOUT must be positive"))
	}
	return errors.Join(errs...)
}

// consolePostgres is the configuration of the console's pool: the service's, with the
// console's size.
func (c Config) consolePostgres() config.Postgres {
	p := c.Postgres
	p.DBMaxConns = c.ConsoleDBMaxConns
	return p
}

// Validate reports every problem in the console's settings.
func (c Console) Validate() error {
	errs := []error{c.SMTP.Validate()}
	if _, err := consoleURL(c.ConsoleURL); err != nil {
		errs = append(errs, err)
	}
	if len(c.ConsoleCookieKey) < minCookieKeyLen {
		errs = append(errs, fmt.Errorf("CONSOLE_COOKIE_KEY must be at least %d bytes", minCookieKeyLen))
	}
	if _, err := clientip.New(c.ConsoleTrustedProxies); err != nil {
		errs = append(errs, fmt.Errorf("CONSOLE_TRUSTED_PROXIES: %w", err))
	}
	if c.SignInLinkTTL <= 0 || c.SessionTTL <= 0 || c.SignInWindow <= 0 {
		errs = append(errs, errors.New("CONSOLE_SIGNIN_LINK_TTL, CONSOLE_SESSION_TTL and CONSOLE_SIGNIN_WINDOW must be positive"))
	}
	if c.SignInPerBrowser < 1 || c.SignInPerEmail < 1 || c.SignInPerAddress < 1 {
		errs = append(errs, errors.New("CONSOLE_SIGNIN_PER_BROWSER, CONSOLE_SIGNIN_PER_EMAIL and CONSOLE_SIGNIN_PER_ADDRESS must be at least 1"))
	}
	if u, err := url.Parse(c.WebhooksURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, errors.New("WEBHOOKS_URL must be an http(s) URL"))
	}
	if c.WebhooksTimeout <= 0 {
		errs = append(errs, errors.New("WEBHOOKS_TIMEOUT must be positive"))
	}
	if u, err := url.Parse(c.RegistrationURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, errors.New("REGISTRATION_URL must be an http(s) URL"))
	}
	if c.RegistrationTimeout <= 0 {
		errs = append(errs, errors.New("REGISTRATION_TIMEOUT must be positive"))
	}
	if c.SignInRequestsPerMinute < 1 || c.ConsoleDBMaxConns < 1 {
		errs = append(errs, errors.New("CONSOLE_SIGNIN_REQUESTS_PER_MINUTE and CONSOLE_DB_MAX_CONNS must be at least 1"))
	}
	return errors.Join(errs...)
}

// consoleURL parses CONSOLE_URL: an https origin, or http for a local host, without a path.
func consoleURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("CONSOLE_URL must be an origin such as https://console.podium.example")
	}
	local := u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1" || u.Hostname() == "::1"
	if u.Scheme != "https" && (u.Scheme != "http" || !local) {
		return nil, errors.New("CONSOLE_URL must use https (http only for localhost): its session cookies are Secure")
	}
	u.Path = ""
	return u, nil
}
