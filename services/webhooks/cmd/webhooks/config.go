package main

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
)

// callers are the services whose tokens the webhooks routes accept: it must trust a key of
// each. Registration's key, when listed, lets it wipe an organizer's test data; without it
// the wipe answers 401.
var callers = []string{identity.Gateway, identity.Auth}

// Config is the configuration of `webhooks serve` and `webhooks migrate`.
type Config struct {
	config.Base
	config.Postgres
	config.Kafka
	// SMTP is the server the notices of disabled endpoints are sent through.
	config.SMTP
	// SigningIdentity trusts the gateway's and auth's keys and signs the calls to auth.
	config.SigningIdentity
	// RequestTimeout is each request's deadline; a request that runs out of time answers 503.
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"10s"`
	// AuthURL is auth's internal API (an organization's contacts).
	AuthURL string `env:"AUTH_URL" envDefault:"http://127.0.0.1:8081"`
	// SecretsKey encrypts the endpoints' signing secrets at rest (AES-256-GCM): the base64 of
	// 32 random bytes.
	SecretsKey string `env:"SECRETS_KEY,notEmpty" secret:"true"`
	// AllowLoopbackReceivers accepts http:// and loopback receivers; only local runs and tests
	// set it, never a deployment. No other private range is ever allowed.
	AllowLoopbackReceivers bool `env:"ALLOW_LOOPBACK_RECEIVERS" envDefault:"false"`
	// ClockShiftFile, when set, names a file holding how far ahead of the system clock the
	// service runs (clock.Shifted): only local stacks and fault tests set it, to let days of
	// retries pass in minutes; never a deployment.
	ClockShiftFile string `env:"CLOCK_SHIFT_FILE"`
	// DeliveryWorkers is the shared pool of attempts in flight; DeliveryPerOrganization bounds
	// one organization's share of it and DeliveryPerEndpoint one endpoint's.
	DeliveryWorkers         int `env:"DELIVERY_WORKERS" envDefault:"64"`
	DeliveryPerOrganization int `env:"DELIVERY_PER_ORGANIZATION" envDefault:"16"`
	DeliveryPerEndpoint     int `env:"DELIVERY_PER_ENDPOINT" envDefault:"4"`
	// MaxEndpoints is the most endpoints an organization has per mode.
	MaxEndpoints int `env:"MAX_ENDPOINTS" envDefault:"16"`
	// Retention is how long messages and their deliveries are kept (and how far back recover
	// reaches).
	Retention time.Duration `env:"RETENTION" envDefault:"720h"`
}

// minRetention keeps every delivery until its retries are over (3 days) and a day more.
const minRetention = 96 * time.Hour

// Validate reports every problem in the configuration.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Postgres.Validate(), c.Kafka.Validate(), c.SMTP.Validate(), c.SigningIdentity.Validate()}
	if _, err := identity.ParseTrustedKeys(c.IdentityTrustedKeys, callers...); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_TRUSTED_KEYS: %w", err))
	}
	if _, err := identity.ParsePrivateKey(c.IdentityPrivateKey); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_PRIVATE_KEY: %w", err))
	}
	if _, err := domain.ParseSecretsKey(c.SecretsKey); err != nil {
		errs = append(errs, fmt.Errorf("SECRETS_KEY %w", err))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("REQUEST_TIMEOUT must be positive"))
	}
	if u, err := url.Parse(c.AuthURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, errors.New("AUTH_URL must be an http(s) URL"))
	}
	if c.DeliveryPerEndpoint < 1 || c.DeliveryPerOrganization < c.DeliveryPerEndpoint || c.DeliveryWorkers <= c.DeliveryPerOrganization {
		errs = append(errs, errors.New("DELIVERY_PER_ENDPOINT must be at least 1, DELIVERY_PER_ORGANIZATION at least DELIVERY_PER_ENDPOINT, and DELIVERY_WORKERS more than DELIVERY_PER_ORGANIZATION (one organization never takes the whole pool)"))
	}
	if c.ClockShiftFile != "" && !c.AllowLoopbackReceivers {
		errs = append(errs, errors.New("CLOCK_SHIFT_FILE is only for local runs and fault tests: it needs ALLOW_LOOPBACK_RECEIVERS=true"))
	}
	if c.MaxEndpoints < 1 {
		errs = append(errs, errors.New("MAX_ENDPOINTS must be at least 1"))
	}
	if c.Retention < minRetention {
		errs = append(errs, fmt.Errorf("RETENTION must be at least %s (a delivery is retried for 3 days)", minRetention))
	}
	return errors.Join(errs...)
}
