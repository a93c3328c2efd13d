package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// callers are the services whose tokens registration's routes accept: it must trust a key of
// each. The console's test-data routes also accept auth's tokens when a key of auth is listed.
var callers = []string{identity.Gateway, identity.Checkout}

// Config is the configuration of `registration serve` and `registration migrate`.
type Config struct {
	config.Base
	config.Postgres
	config.Kafka
	// SMTP is the server of the mail worker.
	config.SMTP
	// SigningIdentity trusts the keys of the callers and signs registration's calls to the
	// catalog.
	config.SigningIdentity
	// RequestTimeout is each request's deadline; a request that runs out of time answers 503.
	// It stays below the gateway's UPSTREAM_TIMEOUT (15 s), so registration answers before the
	// gateway gives up with 504.
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"10s"`
	// CatalogURL is the base address of the catalog's internal API.
	CatalogURL string `env:"CATALOG_URL" envDefault:"http://127.0.0.1:8082"`
	// CheckoutURL and WebhooksURL are the base addresses of the internal APIs of checkout and
	// the webhooks service, whose test data a wipe deletes too.
	CheckoutURL string `env:"CHECKOUT_URL" envDefault:"http://127.0.0.1:8084"`
	WebhooksURL string `env:"WEBHOOKS_URL" envDefault:"http://127.0.0.1:8085"`
	// CatalogCacheTTL is how long an event read from the catalog is reused.
	CatalogCacheTTL time.Duration `env:"CATALOG_CACHE_TTL" envDefault:"2s"`
	// HoldSweepInterval is how often expired holds are released.
	HoldSweepInterval time.Duration `env:"HOLD_SWEEP_INTERVAL" envDefault:"5s"`
	// HoldMaxPlacesPerAddress and HoldMaxPlacesPerEmail cap the places held and not yet paid
	// for at once in one event from one client network (a hold beyond is refused) and for one
	// purchaser e-mail (a hold beyond releases the e-mail's oldest); 0 is no cap, for load
	// tests from one address.
	HoldMaxPlacesPerAddress int `env:"HOLD_MAX_PLACES_PER_ADDRESS" envDefault:"33"`
	HoldMaxPlacesPerEmail   int `env:"HOLD_MAX_PLACES_PER_EMAIL" envDefault:"22"`
	// ReceiptCooldown is how long after a receipt mail to an address for an event another is
	// refused (0: no cooldown; a mail still unsent is brought up to date, never queued twice,
	// anyway).
	ReceiptCooldown time.Duration `env:"RECEIPT_COOLDOWN" envDefault:"10m"`
	// WaitlistOfferTTL is how long a waitlist offer holds its place for the buyer it is
	// offered to before it lapses and the next in line is offered.
	WaitlistOfferTTL time.Duration `env:"WAITLIST_OFFER_TTL" envDefault:"24h"`
	// WaitlistMaxActivePerEmail caps an e-mail's entries in line or offered with one organizer
	// in one mode, and WaitlistMaxJoinsPerEmailHour its new entries per hour (0: no cap).
	WaitlistMaxActivePerEmail    int `env:"WAITLIST_MAX_ACTIVE_PER_EMAIL" envDefault:"5"`
	WaitlistMaxJoinsPerEmailHour int `env:"WAITLIST_MAX_JOINS_PER_EMAIL_HOUR" envDefault:"5"`
	// WaitlistClockShiftFile, when set, names a file holding how far ahead of the system clock
	// the waitlist's offers and lapses run (clock.Shifted): only local stacks and end-to-end
	// tests set it, to let an offer's day pass in a moment; never a deployment.
	WaitlistClockShiftFile string `env:"WAITLIST_CLOCK_SHIFT_FILE"`
}

// AppOptions are the service's tunables from the configuration (0 turns a limit off).
func (c Config) AppOptions() app.Options {
	return app.Options{
		HoldLimits:      domain.HoldLimits{PerAddress: c.HoldMaxPlacesPerAddress, PerEmail: c.HoldMaxPlacesPerEmail},
		ReceiptCooldown: c.ReceiptCooldown,
		OfferTTL:        c.WaitlistOfferTTL,
		WaitlistLimits:  domain.WaitlistLimits{Active: c.WaitlistMaxActivePerEmail, PerHour: c.WaitlistMaxJoinsPerEmailHour},
	}
}

// Validate reports every problem in the configuration.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Postgres.Validate(), c.Kafka.Validate(), c.SMTP.Validate(), c.SigningIdentity.Validate()}
	if _, err := identity.ParseTrustedKeys(c.IdentityTrustedKeys, callers...); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_TRUSTED_KEYS: %w", err))
	}
	if _, err := identity.ParsePrivateKey(c.IdentityPrivateKey); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_PRIVATE_KEY: %w", err))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("REQUEST_TIMEOUT must be positive"))
	}
	for name, u := range map[string]string{"CATALOG_URL": c.CatalogURL, "CHECKOUT_URL": c.CheckoutURL, "WEBHOOKS_URL": c.WebhooksURL} {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			errs = append(errs, fmt.Errorf("%s must be an http(s) URL", name))
		}
	}
	if c.WaitlistOfferTTL < time.Minute {
		errs = append(errs, errors.New("WAITLIST_OFFER_TTL must be at least 1m"))
	}
	if c.CatalogCacheTTL < 0 {
		errs = append(errs, errors.New("CATALOG_CACHE_TTL must not be negative"))
	}
	if c.HoldSweepInterval <= 0 {
		errs = append(errs, errors.New("HOLD_SWEEP_INTERVAL must be positive"))
	}
	for name, v := range map[string]int{"HOLD_MAX_PLACES_PER_ADDRESS": c.HoldMaxPlacesPerAddress, "HOLD_MAX_PLACES_PER_EMAIL": c.HoldMaxPlacesPerEmail} {
		if v != 0 && v < domain.MaxPlacesPerPurchase {
			errs = append(errs, fmt.Errorf("%s must be 0 (no cap) or at least %d (one purchase: a registration and 10 guests)", name, domain.MaxPlacesPerPurchase))
		}
	}
	if c.ReceiptCooldown < 0 {
		errs = append(errs, errors.New("RECEIPT_COOLDOWN must not be negative"))
	}
	if c.WaitlistMaxActivePerEmail < 0 || c.WaitlistMaxJoinsPerEmailHour < 0 {
		errs = append(errs, errors.New("WAITLIST_MAX_ACTIVE_PER_EMAIL and WAITLIST_MAX_JOINS_PER_EMAIL_HOUR must not be negative"))
	}
	return errors.Join(errs...)
}
