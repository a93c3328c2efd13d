package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/identity"
)

// callers are the services whose tokens the catalog's routes accept: it must trust a key of each.
var callers = []string{identity.Gateway, identity.Checkout, identity.Registration}

// minOperatorTokenLen is the shortest operator token accepted.
const minOperatorTokenLen = 32

// Config is the configuration of `catalog serve` and `catalog migrate`.
type Config struct {
	config.Base
	config.Postgres
	config.Kafka
	// OperatorToken guards the admin API.
	OperatorToken string `env:"CATALOG_OPERATOR_TOKEN,notEmpty" secret:"true"`
	// Identity trusts the keys of the callers.
	config.Identity
	// RequestTimeout is each request's deadline; a request that runs out of time answers 503.
	// It stays below the gateway's UPSTREAM_TIMEOUT (15 s), so the catalog answers first.
	RequestTimeout time.Duration `env:"REQUEST_TIMEOUT" envDefault:"10s"`
	// InstanceID names this instance's cache-invalidation consumer group; empty means the host
	// name plus random characters.
	InstanceID string `env:"CATALOG_INSTANCE_ID"`
	// CacheTTL bounds how long a cached search or event detail is served; changes invalidate
	// it at once.
	CacheTTL time.Duration `env:"CATALOG_CACHE_TTL" envDefault:"60s"`
	// PricingCacheTTL bounds how long cached pricing cards are served (places taken through
	// other instances show within it).
	PricingCacheTTL time.Duration `env:"CATALOG_PRICING_CACHE_TTL" envDefault:"1s"`
	// EdgeTTL is how long the gateway may keep a public answer (Surrogate-Control); 0 lets it
	// keep none.
	EdgeTTL time.Duration `env:"CATALOG_EDGE_TTL" envDefault:"1s"`
	// CacheMaxEntries bounds the number of cached answers.
	CacheMaxEntries int `env:"CATALOG_CACHE_MAX_ENTRIES" envDefault:"10000"`
}

// Validate reports every problem in the configuration.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Postgres.Validate(), c.Kafka.Validate(), c.Identity.Validate()}
	if len(c.OperatorToken) < minOperatorTokenLen {
		errs = append(errs, fmt.Errorf("CATALOG_OPERATOR_TOKEN must be at least %d characters", minOperatorTokenLen))
	}
	if _, err := identity.ParseTrustedKeys(c.IdentityTrustedKeys, callers...); err != nil {
		errs = append(errs, fmt.Errorf("IDENTITY_TRUSTED_KEYS: %w", err))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("REQUEST_TIMEOUT must be positive"))
	}
	if c.EdgeTTL < 0 {
		errs = append(errs, errors.New("CATALOG_EDGE_TTL must not be negative"))
	}
	if c.CacheTTL <= 0 || c.PricingCacheTTL <= 0 {
		errs = append(errs, errors.New("CATALOG_CACHE_TTL and CATALOG_PRICING_CACHE_TTL must be positive"))
	}
	if c.CacheMaxEntries < 1 {
		errs = append(errs, errors.New("CATALOG_CACHE_MAX_ENTRIES must be at least 1"))
	}
	return errors.Join(errs...)
}

// instanceID names this process uniquely: the host name plus random characters, since
// restarted pods keep their names.
func instanceID() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}
