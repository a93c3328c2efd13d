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
	"golang.org/x/sync/errgroup"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
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

// runEdge runs the gateway until ctx ends.
func runEdge(ctx context.Context, cfg gwconfig.Config, log *slog.Logger) error {
	if cfg.InstanceID == "" {
		cfg.InstanceID = instanceID()
	}
	log.Info("starting", "config", config.LogValue(cfg))

	tel, err := service.Observe(ctx, "gateway", cfg.Base, log)
	if err != nil {
		return err
	}
	defer tel.Close(log) //nolint:contextcheck // the run context has ended by then
	rdb, err := redisconn.Open(cfg.RedisURL, true)
	if err != nil {
		return err
	}
	defer rdb.Close()
	gw, err := newGateway(cfg, rdb, log)
	if err != nil {
		return err
	}
	cluster, err := broker.NewCluster(cfg.Kafka)
	if err != nil {
		return err
	}
	listeners := newListeners(cfg, cluster, gw, log)
	instances := countInstances(cfg, cluster, gw.Limiter, log)
	srv := httpserver.New(httpserver.Options{
		Log: log, BodyLimit: edge.BodyLimit(), Metrics: tel.MetricsHandler(), DrainDelay: cfg.DrainDelay, Ready: readiness(listeners),
	})
	if err := gw.Register(srv.App); err != nil {
		return err
	}
	err = serve(ctx, cfg, srv, gw.Admission, instances, listeners)
	log.Info("stopped", "err", err)
	return err
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
	admit := admission.New([]string{edge.Catalog, edge.Registration, edge.Checkout}, admission.Options{
		MinLimit: cfg.AdmissionMinLimit, InitialLimit: cfg.AdmissionInitialLimit, MaxLimit: cfg.AdmissionMaxLimit, Log: log,
	})
	return &edge.Gateway{
		Keys: store, Limiter: ratelimit.New(rdb, log, 1), Limits: limits(cfg),
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
// every 2 seconds, and a count holds for 30 seconds, longer than an instance that left its group
// at SIGTERM may still serve (its drain delay and shutdown timeout).
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

// readiness makes the instance ready only once every listener has joined its topic.
func readiness(listeners []*listener) []httpserver.Check {
	var ready []httpserver.Check
	for _, l := range listeners {
		ready = append(ready, httpserver.Check{Name: l.what + " listener", Fn: l.Ready})
	}
	return ready
}

// serve runs the listeners, the admission's calibrations, the count of instances and srv until
// ctx ends or one of them fails.
func serve(ctx context.Context, cfg gwconfig.Config, srv *httpserver.Server, admit *admission.Controller, instances *fleet.Counter, listeners []*listener) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return admit.Run(gctx) })
	g.Go(func() error { return instances.Run(gctx) })
	for _, l := range listeners {
		g.Go(func() error { return l.Run(gctx) })
	}
	g.Go(func() error { return srv.ListenAndServe(gctx, cfg.HTTPAddr, cfg.ShutdownTimeout) })
	return g.Wait()
}

func newUpstreams(cfg gwconfig.Config) (map[string]*proxy.Upstream, error) {
	out := map[string]*proxy.Upstream{}
	for name, url := range map[string]string{edge.Catalog: cfg.CatalogURL, edge.Registration: cfg.RegistrationURL, edge.Checkout: cfg.CheckoutURL} {
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
	}
}
