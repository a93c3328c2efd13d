// Command gateway is the edge of the external API: `gateway serve` (the default) authenticates
// keys, checks scopes, origins and rate limits, validates bodies and routes each request to its
// owner service; `gateway dead-letters list|replay` shows and replays the key and catalog
// events its listeners could never handle.
package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/redisconn"
	"github.com/podiumhq/podium/libs/service"
	"github.com/podiumhq/podium/services/gateway/internal/admission"
	gwconfig "github.com/podiumhq/podium/services/gateway/internal/config"
	"github.com/podiumhq/podium/services/gateway/internal/edge"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
	"github.com/podiumhq/podium/services/gateway/internal/fleet"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

var usage = `Usage:
  gateway [serve]   run the edge (the default)
` + broker.DeadLettersUsage("gateway")

// program is the binary: its commands, "serve" when none is named.
var program = service.Program{
	Name:  "gateway",
	Usage: usage,
	Commands: map[string]service.Command{
		"serve":        service.Serve("gateway", runEdge),
		"dead-letters": service.DeadLetters(deadLetters),
	},
}

func main() { program.Main() }

// runEdge runs the gateway until ctx ends: its listeners (readiness waits for each), the
// admission's calibrations, the count of instances, and the edge.
func runEdge(ctx context.Context, cfg gwconfig.Config, log *slog.Logger) error {
	if cfg.InstanceID == "" {
		cfg.InstanceID = instanceID()
	}
	return service.Run(ctx, service.Service{
		Name: "gateway", Config: cfg, Base: cfg.Base, Log: log, Kafka: &cfg.Kafka,
		HTTP: httpserver.Options{BodyLimit: edge.BodyLimit()},
		Build: func(_ context.Context, r *service.Resources) (service.Parts, error) {
			rdb, err := redisconn.Open(cfg.RedisURL, true)
			if err != nil {
				return service.Parts{}, err
			}
			r.OnClose(func() { _ = rdb.Close() })
			gw, err := newGateway(cfg, rdb, log)
			if err != nil {
				return service.Parts{}, err
			}
			var consumers []service.Consumer
			for _, l := range newListeners(cfg, r.Cluster, gw, log) {
				consumers = append(consumers, service.Consumer{Name: l.what + " listener", Consumer: l})
			}
			return service.Parts{
				Workers: []service.Worker{
					{Name: "admission calibration", Run: gw.Admission.Run},
					{Name: "instance count", Run: countInstances(cfg, r.Cluster, gw.Limiter, log).Run},
				},
				Consumers: consumers,
				Routes:    gw.Register,
			}, nil
		},
	})
}

// newGateway wires the edge: the identity signer, the key store over auth, the limiter over
// rdb, the body validator, the client-address resolver, the owners, their admission and the
// edge cache.
func newGateway(cfg gwconfig.Config, rdb *redis.Client, log *slog.Logger) (*edge.Gateway, error) {
	priv, err := identity.ParsePrivateKey(cfg.IdentityPrivateKey)
	if err != nil {
		return nil, err
	}
	signer := identity.NewSigner(identity.Gateway, priv, cfg.IdentityTokenTTL)
	validator, err := apispec.NewValidator()
	if err != nil {
		return nil, err
	}
	resolver, err := clientip.New(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	upstreams, err := newUpstreams(cfg)
	if err != nil {
		return nil, err
	}
	store := keys.NewStore(keys.NewAuthClient(cfg.AuthURL, signer, cfg.AuthTimeout), keys.Options{
		TTL: cfg.KeyCacheTTL, StaleTTL: cfg.KeyStaleTTL, NegativeTTL: cfg.KeyNegativeCacheTTL, OriginTTL: cfg.OriginCacheTTL, Log: log,
	})
	var edgeCache *edgecache.Cache
	if cfg.EdgeCacheEntries > 0 {
		edgeCache = edgecache.New(cfg.EdgeCacheEntries, cfg.EdgeCacheMaxBytes, cfg.EdgeCacheMaxTTL, time.Now)
	}
	admit := admission.New([]string{edge.Catalog, edge.Registration, edge.Checkout, edge.Webhooks}, admission.Options{
		MinLimit: cfg.AdmissionMinLimit, InitialLimit: cfg.AdmissionInitialLimit, MaxLimit: cfg.AdmissionMaxLimit, Log: log,
	})
	return &edge.Gateway{
		Keys: store, Limiter: ratelimit.New(rdb, log, 1), Limits: limits(cfg), TestLimits: testLimits(cfg),
		Signer: signer, Validator: validator, Validated: edge.NewValidatedBodies(10_000, 10*time.Minute), ClientIP: resolver,
		Upstreams: upstreams, Admission: admit, Edge: edgeCache, Log: log, Now: time.Now,
	}, nil
}

// newListeners returns the Kafka listeners gw needs on cluster: key revocations, and catalog
// changes when it keeps an edge cache.
func newListeners(cfg gwconfig.Config, cluster broker.Cluster, gw *edge.Gateway, log *slog.Logger) []*listener {
	listeners := []*listener{newRevocationListener(cfg, cluster, gw.Keys, log)}
	if gw.Edge != nil {
		listeners = append(listeners, newCatalogListener(cfg, cluster, gw.Edge, log))
	}
	return listeners
}

// countInstances returns the counter of the live gateway instances, which sets the share of
// each limit the limiter allows while Redis is down (one over the configured maximum until they
// are counted). Each instance's key-event group has a member while it runs; they are counted
// every 2 seconds, and a count holds for 30 seconds, longer than an instance that was told to
// stop may still serve before it leaves its group (its drain delay and shutdown timeout).
func countInstances(cfg gwconfig.Config, cluster broker.Cluster, limiter *ratelimit.Limiter, log *slog.Logger) *fleet.Counter {
	return fleet.New(fleet.Options{
		Members: func(ctx context.Context) (map[string]int, error) {
			return broker.GroupMembers(ctx, cluster, instanceGroup)
		},
		Self: keyEventsGroups + cfg.InstanceID, Max: cfg.MaxInstances,
		Interval: 2 * time.Second, Hold: 30 * time.Second, Timeout: 5 * time.Second,
		Share: limiter.SetShare, Log: log,
	})
}

func newUpstreams(cfg gwconfig.Config) (map[string]*proxy.Upstream, error) {
	out := map[string]*proxy.Upstream{}
	for name, url := range map[string]string{
		edge.Catalog: cfg.CatalogURL, edge.Registration: cfg.RegistrationURL, edge.Checkout: cfg.CheckoutURL, edge.Webhooks: cfg.WebhooksURL,
	} {
		u, err := proxy.New(name, url, cfg.UpstreamTimeout)
		if err != nil {
			return nil, err
		}
		out[name] = u
	}
	return out, nil
}

func limits(cfg gwconfig.Config) edge.Limits {
	return edge.Limits{
		PerKey:                cfg.RateLimitPerKey.Limit,
		BrowserPerKey:         cfg.RateLimitBrowserPerKey.Limit,
		BrowserPerIP:          cfg.RateLimitBrowserPerIP.Limit,
		CheckoutSessionPerKey: cfg.RateLimitCheckoutSessionPerKey.Limit,
		CheckoutSessionPerIP:  cfg.RateLimitCheckoutSessionPerIP.Limit,
		ReceiptsPerKey:        cfg.RateLimitReceiptsPerKey.Limit,
		ReceiptsPerIP:         cfg.RateLimitReceiptsPerIP.Limit,
		KeyLookupPerIP:        cfg.RateLimitKeyLookupPerIP.Limit,
		PublicPerIP:           cfg.RateLimitPublicPerIP.Limit,
		WebhookPerIP:          cfg.RateLimitWebhookPerIP.Limit,
		WaitlistPerKey:        cfg.RateLimitWaitlistPerKey.Limit,
		WaitlistPerIP:         cfg.RateLimitWaitlistPerIP.Limit,
	}
}

// testLimits are the limits of test keys; the routes without a key have none of their own.
func testLimits(cfg gwconfig.Config) edge.Limits {
	return edge.Limits{
		PerKey:                cfg.RateLimitTestPerKey.Limit,
		BrowserPerKey:         cfg.RateLimitTestBrowserPerKey.Limit,
		BrowserPerIP:          cfg.RateLimitTestBrowserPerIP.Limit,
		CheckoutSessionPerKey: cfg.RateLimitTestCheckoutSessionPerKey.Limit,
		CheckoutSessionPerIP:  cfg.RateLimitTestCheckoutSessionPerIP.Limit,
		ReceiptsPerKey:        cfg.RateLimitTestReceiptsPerKey.Limit,
		ReceiptsPerIP:         cfg.RateLimitTestReceiptsPerIP.Limit,
		KeyLookupPerIP:        cfg.RateLimitTestKeyLookupPerIP.Limit,
		WaitlistPerKey:        cfg.RateLimitTestWaitlistPerKey.Limit,
		WaitlistPerIP:         cfg.RateLimitTestWaitlistPerIP.Limit,
	}
}
