package main

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Config is the configuration of `checkout serve` and `checkout migrate`.
type Config struct {
	config.Base
	config.Postgres
	config.Kafka
	// SigningIdentity trusts the gateway's keys and signs checkout's calls to the catalog and
	// registration.
	config.SigningIdentity
	// RequestTimeout is each request's deadline; a request that runs out of time answers 503.
	// A session request calls the catalog and registration (5 s each at most) and Stripe (6 s,
	// retried once), so it gets longer than the other services' 10 s, still below the gateway's
	// UPSTREAM_TIMEOUT (15 s) so that checkout answers before the gateway gives up with 504.
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"14s"`
	// CatalogURL and RegistrationURL are the peers' internal APIs.
	CatalogURL      string `env:"CATALOG_URL" envDefault:"http://127.0.0.1:8082"`
	RegistrationURL string `env:"REGISTRATION_URL" envDefault:"http://127.0.0.1:8083"`
	// StripeSecretKey authenticates to Stripe (sk_… or rk_…).
	StripeSecretKey string `env:"STRIPE_SECRET_KEY,notEmpty" secret:"true"`
	// StripeAPIBase replaces https://api.stripe.com (stripe-mock locally); empty is Stripe.
	StripeAPIBase string `env:"STRIPE_API_BASE"`
	// StripeWebhookSecret verifies webhook signatures (whsec_…).
	StripeWebhookSecret string `env:"STRIPE_WEBHOOK_SECRET,notEmpty" secret:"true"`
	// StripeTestSecretKey (sk_test_… or rk_test_…) and StripeTestWebhookSecret (whsec_…) pay
	// for test data (purchases made with test-mode keys) and verify test-mode webhooks; both or
	// neither. Without them test purchases are refused (503) and every webhook is verified
	// with the live secret.
	StripeTestSecretKey     string `env:"STRIPE_TEST_SECRET_KEY" secret:"true"`
	StripeTestWebhookSecret string `env:"STRIPE_TEST_WEBHOOK_SECRET" secret:"true"`
	// HoldTTL is how long places are held before payment (see app.SessionExpiry for the Stripe
	// session's life).
	HoldTTL time.Duration `env:"HOLD_TTL" envDefault:"10m"`
	// IdempotencyRetention is how long idempotency keys are remembered.
	IdempotencyRetention time.Duration `env:"IDEMPOTENCY_RETENTION" envDefault:"48h"`
	// PromocodeFailuresPerAddress and PromocodeFailuresPerKey are the failed promocodes a client
	// network and a publishable key may make per PromocodeFailureWindow before they are
	// blocked (a leaky count: one more is allowed every window/failures).
	PromocodeFailuresPerAddress int           `env:"PROMOCODE_FAILURES_PER_ADDRESS" envDefault:"5"`
	PromocodeFailuresPerKey     int           `env:"PROMOCODE_FAILURES_PER_KEY" envDefault:"100"`
	PromocodeFailureWindow      time.Duration `env:"PROMOCODE_FAILURE_WINDOW" envDefault:"1h"`
	// ReconcileInterval is how often the Checkout Sessions Stripe created from the
	// reconciliation mark on (at most ReconcileLookback back) are listed and the outcomes no
	// webhook settled are applied (by one instance at a time).
	ReconcileInterval time.Duration `env:"RECONCILE_INTERVAL" envDefault:"2m"`
	ReconcileLookback time.Duration `env:"RECONCILE_LOOKBACK" envDefault:"48h"`
	// RefundRetryMax is the longest wait between two attempts of a refund Stripe failed for
	// now (the backoff doubles from 10 s up to it).
	RefundRetryMax time.Duration `env:"REFUND_RETRY_MAX" envDefault:"15m"`
	// WebhookUnknownRetryWindow is how long after Stripe created it a webhook about a checkout
	// not known is answered 503, so that Stripe delivers it again; later it is acknowledged.
	WebhookUnknownRetryWindow time.Duration `env:"WEBHOOK_UNKNOWN_RETRY_WINDOW" envDefault:"6h"`
}

// Backoffs are the limits of failed promocodes per client network and per publishable key;
// blocks start at domain.DefaultAddressBackoff's Base and double up to its Max.
func (c Config) Backoffs() (address, key domain.Backoff) {
	address, key = domain.DefaultAddressBackoff, domain.DefaultKeyBackoff
	address.Free, address.Window = c.PromocodeFailuresPerAddress, c.PromocodeFailureWindow
	key.Free, key.Window = c.PromocodeFailuresPerKey, c.PromocodeFailureWindow
	return address, key
}

// Bounds of the hold: long enough to open the Stripe session and pay in it, and no longer
// than Stripe's longest session (24 hours) plus app.PaymentGrace.
const (
	minHoldTTL = 5 * time.Minute
	maxHoldTTL = 24*time.Hour + app.PaymentGrace
)

// Validate reports every problem in the configuration.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Postgres.Validate(), c.Kafka.Validate(), c.SigningIdentity.Validate()}
	if _, err := identity.ParseTrustedKeys(c.IdentityTrustedKeys, identity.Gateway); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_TRUSTED_KEYS: %w", err))
	}
	if _, err := identity.ParsePrivateKey(c.IdentityPrivateKey); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_PRIVATE_KEY: %w", err))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("REQUEST_TIMEOUT must be positive"))
	}
	errs = append(errs, checkURL("CATALOG_URL", c.CatalogURL, false), checkURL("REGISTRATION_URL", c.RegistrationURL, false),
		checkURL("STRIPE_API_BASE", c.StripeAPIBase, true))
	if !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_") {
		errs = append(errs, errors.New("STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_… or rk_…)"))
	}
	if !strings.HasPrefix(c.StripeWebhookSecret, "whsec_") {
		errs = append(errs, errors.New("STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)"))
	}
	if c.HoldTTL < minHoldTTL || c.HoldTTL > maxHoldTTL {
		errs = append(errs, fmt.Errorf("HOLD_TTL must be from %s to %s (Stripe sessions live at most 24 hours)", minHoldTTL, maxHoldTTL))
	}
	if c.IdempotencyRetention < 24*time.Hour {
		errs = append(errs, errors.New("IDEMPOTENCY_RETENTION must be at least 24h"))
	}
	if c.PromocodeFailuresPerAddress < 1 || c.PromocodeFailuresPerKey < 1 || c.PromocodeFailureWindow < time.Minute {
		errs = append(errs, errors.New("PROMOCODE_FAILURES_PER_ADDRESS and PROMOCODE_FAILURES_PER_KEY must be at least 1 and PROMOCODE_FAILURE_WINDOW at least 1m"))
	}
	return errors.Join(append(errs, c.validateStripeTest(), c.validateStripeChecks())...)
}

// validateStripeTest checks the optional test-mode credentials.
func (c Config) validateStripeTest() error {
	var errs []error
	if (c.StripeTestSecretKey == "") != (c.StripeTestWebhookSecret == "") {
		errs = append(errs, errors.New("STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET are set together or not at all"))
	}
	if k := c.StripeTestSecretKey; k != "" && !strings.HasPrefix(k, "sk_test_") && !strings.HasPrefix(k, "rk_test_") {
		errs = append(errs, errors.New("STRIPE_TEST_SECRET_KEY must be a Stripe test-mode key (sk_test_… or rk_test_…)"))
	}
	if s := c.StripeTestWebhookSecret; s != "" && !strings.HasPrefix(s, "whsec_") {
		errs = append(errs, errors.New("STRIPE_TEST_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)"))
	}
	if s := c.StripeTestWebhookSecret; s != "" && subtle.ConstantTimeCompare([]byte(s), []byte(c.StripeWebhookSecret)) == 1 {
		errs = append(errs, errors.New("STRIPE_TEST_WEBHOOK_SECRET must differ from STRIPE_WEBHOOK_SECRET (each mode's events are verified with its own)"))
	}
	return errors.Join(errs...)
}

// validateStripeChecks checks the settings of reconciliation and of webhooks about unknown
// checkouts.
func (c Config) validateStripeChecks() error {
	var errs []error
	if c.ReconcileInterval < time.Second {
		errs = append(errs, errors.New("RECONCILE_INTERVAL must be at least 1s"))
	}
	if c.RefundRetryMax < time.Second || c.RefundRetryMax > 24*time.Hour {
		errs = append(errs, errors.New("REFUND_RETRY_MAX must be from 1s to 24h"))
	}
	if c.ReconcileLookback < 25*time.Hour {
		errs = append(errs, errors.New("RECONCILE_LOOKBACK must be at least 25h (a Stripe session lives up to 24 hours)"))
	}
	if c.WebhookUnknownRetryWindow < time.Minute || c.WebhookUnknownRetryWindow > 72*time.Hour {
		errs = append(errs, errors.New("WEBHOOK_UNKNOWN_RETRY_WINDOW must be from 1m to 72h (Stripe stops retrying after 3 days)"))
	}
	return errors.Join(errs...)
}

func checkURL(name, raw string, optional bool) error {
	if raw == "" && optional {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s must be an http(s) URL", name)
	}
	return nil
}
