package stack

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// startService starts one instance of service svc named name on port and waits until ready;
// extra variables come last, so they override the others.
func (s *Stack) startService(ctx context.Context, name, svc string, port int, extra ...string) error {
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := append(s.commonEnv(), fmt.Sprintf("HTTP_ADDR=127.0.0.1:%d", port))
	env = append(env, s.serviceEnv(name, svc)...)
	env = append(env, s.opts.Env[svc]...)
	env = append(env, extra...)
	if dbURL, ok := s.databases[svc]; ok {
		if proxied, ok := s.serviceDatabases[svc]; ok {
			dbURL = proxied
		}
		env = append(env, "DATABASE_URL="+dbURL)
		if name == svc {
			if err := run(ctx, name+"/migrate", bin(s.opts.BinDir, svc), []string{"migrate"}, env, s.opts.Output); err != nil {
				return err
			}
		}
	}
	p, err := startProcess(name, bin(s.opts.BinDir, svc), nil, env, s.opts.Output)
	if err != nil {
		return err
	}
	p.svc, p.port = svc, port
	s.procs = append(s.procs, p)
	if err := waitReady(ctx, p, url); err != nil {
		return err
	}
	switch f := s.front(svc); {
	case f != nil:
		f.add(fmt.Sprintf("127.0.0.1:%d", port))
	case svc == "gateway" && !strings.HasPrefix(name, extraGateway): // an extra one is its caller's alone
		if !slices.Contains(s.GatewayURLs, url) { // a gateway started again keeps its place
			s.GatewayURLs = append(s.GatewayURLs, url)
		}
	default:
		s.URLs[svc] = url
	}
	return nil
}

func (s *Stack) commonEnv() []string {
	env := []string{
		"LOG_LEVEL=" + s.opts.LogLevel,
		"SHUTDOWN_TIMEOUT=5s",
		"KAFKA_BROKERS=" + strings.Join(s.KafkaBrokers, ","),
	}
	if s.opts.OTLPEndpoint != "" {
		env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+s.opts.OTLPEndpoint)
	}
	return env
}

// serviceEnv is what one service needs to find the others and to tell its callers apart.
func (s *Stack) serviceEnv(name, svc string) []string {
	return append(s.identityEnv(svc), s.peerEnv(name, svc)...)
}

// stripeMockTestKey is checkout's test-mode Stripe key against stripe-mock.
const stripeMockTestKey = "sk_test_stripemocktestmode"

// peerEnv is what one service needs to find the others.
func (s *Stack) peerEnv(name, svc string) []string {
	switch svc {
	case "auth":
		return append([]string{
			"AUTH_OPERATOR_TOKEN=" + s.OperatorToken, "WEBHOOKS_URL=" + s.URLs["webhooks"], "REGISTRATION_URL=" + s.URLs["registration"],
		}, s.consoleEnv(name)...)
	case "catalog":
		return []string{"CATALOG_OPERATOR_TOKEN=" + s.OperatorToken, "CATALOG_INSTANCE_ID=" + name + "-" + randomHex(4)}
	case "registration":
		return append([]string{
			"CATALOG_URL=" + s.URLs["catalog"], "CHECKOUT_URL=" + s.URLs["checkout"], "WEBHOOKS_URL=" + s.URLs["webhooks"],
		}, append(s.smtpEnv(), s.waitlistClockEnv()...)...)
	case "checkout":
		env := []string{
			"CATALOG_URL=" + s.URLs["catalog"], "REGISTRATION_URL=" + s.URLs["registration"],
			"STRIPE_WEBHOOK_SECRET=" + s.WebhookSecret, "STRIPE_TEST_WEBHOOK_SECRET=" + s.TestWebhookSecret,
		}
		if s.opts.StripeSecretKey != "" {
			return append(env, "STRIPE_SECRET_KEY="+s.opts.StripeSecretKey, "STRIPE_TEST_SECRET_KEY="+s.opts.StripeTestSecretKey)
		}
		// stripe-mock accepts sk_test_ plus letters and digits only (a further "_" is a 401); the
		// two keys differ so a test can tell which mode's key a call was made with.
		return append(env, "STRIPE_SECRET_KEY=sk_test_stripemock", "STRIPE_TEST_SECRET_KEY="+stripeMockTestKey,
			"STRIPE_API_BASE="+s.stripeAPIBase())
	case "webhooks":
		// Local receivers (Receiver) listen on the loopback over plain http, which only the
		// stack allows; deployments never set ALLOW_LOOPBACK_RECEIVERS.
		return append([]string{
			"AUTH_URL=" + s.URLs["auth"], "SECRETS_KEY=" + s.webhooksSecretsKey, "ALLOW_LOOPBACK_RECEIVERS=true",
		}, append(s.smtpEnv(), s.webhooksClockEnv()...)...)
	case "gateway":
		return []string{
			"GATEWAY_INSTANCE_ID=" + name + "-" + randomHex(4),
			"REDIS_URL=" + s.redisURLForServices(),
			"AUTH_URL=" + s.URLs["auth"],
			"CATALOG_URL=" + s.URLs["catalog"],
			"REGISTRATION_URL=" + s.URLs["registration"],
			"CHECKOUT_URL=" + s.URLs["checkout"],
			"WEBHOOKS_URL=" + s.URLs["webhooks"],
		}
	}
	return nil
}

// front returns the front of service svc under Options.Faults, or nil.
func (s *Stack) front(svc string) *front {
	if s.faults == nil {
		return nil
	}
	return s.faults.fronts[svc]
}

// redisURLForServices is Redis's address as the gateway is given it: through its fault proxy
// under Options.Faults.
func (s *Stack) redisURLForServices() string {
	if s.serviceRedisURL != "" {
		return s.serviceRedisURL
	}
	return s.RedisURL
}
