// Package config is the gateway's configuration, read from the environment.
package config

import (
	"errors"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// Config is every setting of the gateway. Base.BodyLimit (HTTP_BODY_LIMIT) is read but not
// used: the gateway's bodies are bounded per route by the OpenAPI document.
type Config struct {
	config.Base

	AuthURL         string `env:"AUTH_URL" envDefault:"http://127.0.0.1:8081"`
	CatalogURL      string `env:"CATALOG_URL" envDefault:"http://127.0.0.1:8082"`
	RegistrationURL string `env:"REGISTRATION_URL" envDefault:"http://127.0.0.1:8083"`
	CheckoutURL     string `env:"CHECKOUT_URL" envDefault:"http://127.0.0.1:8084"`
	WebhooksURL     string `env:"WEBHOOKS_URL" envDefault:"http://127.0.0.1:8085"`
	// UpstreamTimeout bounds a forwarded request; AuthTimeout a key lookup.
	UpstreamTimeout time.Duration `env:"UPSTREAM_TIMEOUT" envDefault:"15s"`
	AuthTimeout     time.Duration `env:"AUTH_TIMEOUT" envDefault:"2s"`

	RedisURL string `env:"REDIS_URL" envDefault:"redis://127.0.0.1:6379/0" secret:"true"`
	config.Kafka
	// InstanceID names this instance's consumer groups: every instance must see every key event.
	InstanceID string `env:"GATEWAY_INSTANCE_ID"`
	// MaxInstances is the most gateway instances that may run at once (the autoscaler's maximum
	// plus its rolling-update surge). While Redis is down each instance allows one over the
	// instances counted on Kafka of each limit, and one over this while they cannot be counted.
	MaxInstances int `env:"GATEWAY_MAX_INSTANCES" envDefault:"1"`

	IdentityPrivateKey string        `env:"IDENTITY_PRIVATE_KEY,notEmpty" secret:"true"`
	IdentityTokenTTL   time.Duration `env:"IDENTITY_TOKEN_TTL" envDefault:"60s"`

	KeyCacheTTL time.Duration `env:"KEY_CACHE_TTL" envDefault:"60s"`
	// KeyStaleTTL is how long past KEY_CACHE_TTL keys (and allowed origins) this instance looked
	// up are still served while auth cannot be reached; 0 serves none.
	KeyStaleTTL         time.Duration `env:"KEY_STALE_TTL" envDefault:"15m"`
	KeyNegativeCacheTTL time.Duration `env:"KEY_NEGATIVE_CACHE_TTL" envDefault:"10s"`
	OriginCacheTTL      time.Duration `env:"ORIGIN_CACHE_TTL" envDefault:"60s"`

	// EdgeCacheEntries and EdgeCacheMaxBytes bound the owners' shareable answers kept (0
	// entries keeps none); none is kept longer than EdgeCacheMaxTTL, whatever its owner allows.
	EdgeCacheEntries  int           `env:"EDGE_CACHE_ENTRIES" envDefault:"10000"`
	EdgeCacheMaxBytes int           `env:"EDGE_CACHE_MAX_BYTES" envDefault:"67108864"`
	EdgeCacheMaxTTL   time.Duration `env:"EDGE_CACHE_MAX_TTL" envDefault:"5s"`

	// TrustedProxies lists the CIDRs whose X-Forwarded-For entries are believed.
	TrustedProxies []string `env:"TRUSTED_PROXIES" envSeparator:","`

	RateLimitPerKey                ratelimit.Setting `env:"RATE_LIMIT_PER_KEY" envDefault:"50/s"`
	RateLimitBrowserPerKey         ratelimit.Setting `env:"RATE_LIMIT_BROWSER_PER_KEY" envDefault:"2000/s"`
	RateLimitBrowserPerIP          ratelimit.Setting `env:"RATE_LIMIT_BROWSER_PER_IP" envDefault:"20/s"`
	RateLimitCheckoutSessionPerKey ratelimit.Setting `env:"RATE_LIMIT_CHECKOUT_SESSION_PER_KEY" envDefault:"120/m"`
	RateLimitCheckoutSessionPerIP  ratelimit.Setting `env:"RATE_LIMIT_CHECKOUT_SESSION_PER_IP" envDefault:"10/m"`
	RateLimitReceiptsPerKey        ratelimit.Setting `env:"RATE_LIMIT_RECEIPTS_PER_KEY" envDefault:"60/m"`
	RateLimitReceiptsPerIP         ratelimit.Setting `env:"RATE_LIMIT_RECEIPTS_PER_IP" envDefault:"5/m"`
	RateLimitKeyLookupPerIP        ratelimit.Setting `env:"RATE_LIMIT_KEY_LOOKUP_PER_IP" envDefault:"20/s"`
	RateLimitPublicPerIP           ratelimit.Setting `env:"RATE_LIMIT_PUBLIC_PER_IP" envDefault:"20/s"`
	RateLimitWebhookPerIP          ratelimit.Setting `env:"RATE_LIMIT_WEBHOOK_PER_IP" envDefault:"100/s"`
	// The limits of test keys (pdm_sk_test_, pdm_pk_test_), in buckets apart from the live
	// ones, each below its live default.
	RateLimitTestPerKey                ratelimit.Setting `env:"RATE_LIMIT_TEST_PER_KEY" envDefault:"25/s"`
	RateLimitTestBrowserPerKey         ratelimit.Setting `env:"RATE_LIMIT_TEST_BROWSER_PER_KEY" envDefault:"100/s"`
	RateLimitTestBrowserPerIP          ratelimit.Setting `env:"RATE_LIMIT_TEST_BROWSER_PER_IP" envDefault:"10/s"`
	RateLimitTestCheckoutSessionPerKey ratelimit.Setting `env:"RATE_LIMIT_TEST_CHECKOUT_SESSION_PER_KEY" envDefault:"60/m"`
	RateLimitTestCheckoutSessionPerIP  ratelimit.Setting `env:"RATE_LIMIT_TEST_CHECKOUT_SESSION_PER_IP" envDefault:"6/m"`
	RateLimitTestReceiptsPerKey        ratelimit.Setting `env:"RATE_LIMIT_TEST_RECEIPTS_PER_KEY" envDefault:"30/m"`
	RateLimitTestReceiptsPerIP         ratelimit.Setting `env:"RATE_LIMIT_TEST_RECEIPTS_PER_IP" envDefault:"3/m"`
	RateLimitTestKeyLookupPerIP        ratelimit.Setting `env:"RATE_LIMIT_TEST_KEY_LOOKUP_PER_IP" envDefault:"10/s"`
	// The waitlist joins, live and test, per publishable key and per client address.
	RateLimitWaitlistPerKey     ratelimit.Setting `env:"RATE_LIMIT_WAITLIST_PER_KEY" envDefault:"60/m"`
	RateLimitWaitlistPerIP      ratelimit.Setting `env:"RATE_LIMIT_WAITLIST_PER_IP" envDefault:"5/m"`
	RateLimitTestWaitlistPerKey ratelimit.Setting `env:"RATE_LIMIT_TEST_WAITLIST_PER_KEY" envDefault:"30/m"`
	RateLimitTestWaitlistPerIP  ratelimit.Setting `env:"RATE_LIMIT_TEST_WAITLIST_PER_IP" envDefault:"3/m"`
	// AdmissionMinLimit, AdmissionInitialLimit and AdmissionMaxLimit bound the requests one
	// instance has in flight to one owner; the limit adapts in between (see internal/admission).
	// The floor keeps a gateway starved of CPU from taking its own slowness for its owner's.
	AdmissionMinLimit     uint `env:"ADMISSION_MIN_LIMIT" envDefault:"16"`
	AdmissionInitialLimit uint `env:"ADMISSION_INITIAL_LIMIT" envDefault:"64"`
	AdmissionMaxLimit     uint `env:"ADMISSION_MAX_LIMIT" envDefault:"1024"`
}

// Validate checks the settings that parsing alone does not.
func (c Config) Validate() error {
	errs := []error{c.Base.Validate(), c.Kafka.Validate()}
	if c.MaxInstances < 1 {
		errs = append(errs, errors.New("GATEWAY_MAX_INSTANCES must be at least 1"))
	}
	if strings.HasPrefix(c.InstanceID, "edge-") {
		errs = append(errs, errors.New("GATEWAY_INSTANCE_ID must not start with edge- (gateway-edge-<instance> are the catalog listeners' groups)"))
	}
	if c.IdentityTokenTTL < 10*time.Second {
		errs = append(errs, errors.New("IDENTITY_TOKEN_TTL must be at least 10s"))
	}
	if c.EdgeCacheEntries < 0 || c.EdgeCacheMaxTTL < 0 || (c.EdgeCacheEntries > 0 && c.EdgeCacheMaxBytes < 1<<20) {
		errs = append(errs, errors.New("EDGE_CACHE_ENTRIES and EDGE_CACHE_MAX_TTL must not be negative, and EDGE_CACHE_MAX_BYTES at least 1048576"))
	}
	if c.KeyCacheTTL <= 0 || c.KeyNegativeCacheTTL <= 0 || c.OriginCacheTTL <= 0 {
		errs = append(errs, errors.New("cache lifetimes must be positive"))
	}
	if c.AdmissionMinLimit < 1 || c.AdmissionInitialLimit < c.AdmissionMinLimit || c.AdmissionMaxLimit < c.AdmissionInitialLimit {
		errs = append(errs, errors.New("ADMISSION_MIN_LIMIT must be at least 1, ADMISSION_INITIAL_LIMIT at least ADMISSION_MIN_LIMIT and at most ADMISSION_MAX_LIMIT"))
	}
	if c.KeyStaleTTL < 0 {
		errs = append(errs, errors.New("KEY_STALE_TTL must not be negative"))
	}
	return errors.Join(errs...)
}
