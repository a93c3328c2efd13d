package config_test

import (
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/testkit"
	gwconfig "github.com/podiumhq/podium/services/gateway/internal/config"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// TestInstancesSettings: one instance at most by default (a single gateway keeps whole limits
// while Redis is down); no fewer than one, and no instance ID that would name a catalog
// listener's group.
func TestInstancesSettings(t *testing.T) {
	base := map[string]string{"KAFKA_BROKERS": "127.0.0.1:9092", "IDENTITY_PRIVATE_KEY": "seed"}
	testkit.SetEnv(t, base)
	cfg, err := config.Load[gwconfig.Config]()
	if err != nil || cfg.MaxInstances != 1 {
		t.Fatalf("defaults: GATEWAY_MAX_INSTANCES %d (%v), want 1", cfg.MaxInstances, err)
	}
	for name, value := range map[string]string{"GATEWAY_MAX_INSTANCES": "0", "GATEWAY_INSTANCE_ID": "edge-1"} {
		t.Run(name, func(t *testing.T) {
			testkit.SetEnv(t, map[string]string{name: value})
			if _, err := config.Load[gwconfig.Config](); err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("%s=%s: %v, want an error naming it", name, value, err)
			}
		})
	}
}

// TestWebhooksURL: the webhook endpoints' owner is on 127.0.0.1:8085 unless WEBHOOKS_URL says
// otherwise.
func TestWebhooksURL(t *testing.T) {
	testkit.SetEnv(t, map[string]string{"KAFKA_BROKERS": "127.0.0.1:9092", "IDENTITY_PRIVATE_KEY": "seed"})
	cfg, err := config.Load[gwconfig.Config]()
	if err != nil || cfg.WebhooksURL != "http://127.0.0.1:8085" {
		t.Fatalf("default WEBHOOKS_URL %q (%v), want http://127.0.0.1:8085", cfg.WebhooksURL, err)
	}
	testkit.SetEnv(t, map[string]string{"WEBHOOKS_URL": "http://webhooks:8080"})
	if cfg, err = config.Load[gwconfig.Config](); err != nil || cfg.WebhooksURL != "http://webhooks:8080" {
		t.Fatalf("WEBHOOKS_URL %q (%v), want http://webhooks:8080", cfg.WebhooksURL, err)
	}
}

// TestTestLimitsAreLowerByDefault: every limit of test keys defaults below its live
// counterpart.
func TestTestLimitsAreLowerByDefault(t *testing.T) {
	testkit.SetEnv(t, map[string]string{"KAFKA_BROKERS": "127.0.0.1:9092", "IDENTITY_PRIVATE_KEY": "seed"})
	cfg, err := config.Load[gwconfig.Config]()
	if err != nil {
		t.Fatal(err)
	}
	for name, pair := range map[string][2]ratelimit.Setting{
		"PER_KEY":                  {cfg.RateLimitPerKey, cfg.RateLimitTestPerKey},
		"BROWSER_PER_KEY":          {cfg.RateLimitBrowserPerKey, cfg.RateLimitTestBrowserPerKey},
		"BROWSER_PER_IP":           {cfg.RateLimitBrowserPerIP, cfg.RateLimitTestBrowserPerIP},
		"CHECKOUT_SESSION_PER_KEY": {cfg.RateLimitCheckoutSessionPerKey, cfg.RateLimitTestCheckoutSessionPerKey},
		"CHECKOUT_SESSION_PER_IP":  {cfg.RateLimitCheckoutSessionPerIP, cfg.RateLimitTestCheckoutSessionPerIP},
		"RECEIPTS_PER_KEY":         {cfg.RateLimitReceiptsPerKey, cfg.RateLimitTestReceiptsPerKey},
		"RECEIPTS_PER_IP":          {cfg.RateLimitReceiptsPerIP, cfg.RateLimitTestReceiptsPerIP},
		"KEY_LOOKUP_PER_IP":        {cfg.RateLimitKeyLookupPerIP, cfg.RateLimitTestKeyLookupPerIP},
		"WAITLIST_PER_KEY":         {cfg.RateLimitWaitlistPerKey, cfg.RateLimitTestWaitlistPerKey},
		"WAITLIST_PER_IP":          {cfg.RateLimitWaitlistPerIP, cfg.RateLimitTestWaitlistPerIP},
	} {
		live, test := pair[0].Limit, pair[1].Limit
		perSecond := func(l ratelimit.Limit) float64 { return float64(l.Rate) / l.Period.Seconds() }
		if test.IsZero() || perSecond(test) >= perSecond(live) {
			t.Errorf("RATE_LIMIT_TEST_%s %v, want on and below RATE_LIMIT_%s %v", name, pair[1], name, pair[0])
		}
	}
}
