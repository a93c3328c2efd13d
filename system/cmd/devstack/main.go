// Command devstack runs the whole system locally for `make run`: Postgres and Redis from this
// machine, an embedded Kafka-protocol broker unless KAFKA_BROKERS is set, stripe-mock unless
// STRIPE_SECRET_KEY is set (with a stand-in for Stripe's hosted checkout page), migrations
// applied, a demo organizer seeded and its keys printed, the demo organizer website
// (examples/website) served on the demo key's origin, and a local webhook receiver page
// registered as the demo organizer's endpoint for every event type. Ctrl-C stops everything in
// order.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "devstack:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	binDir := flag.String("bin", "bin", "directory holding the service binaries (make build)")
	port := flag.Int("port", 8080, "gateway port; auth and the owners take the next five")
	site := flag.String("website", "examples/website", "directory of the demo organizer website")
	siteAddr := flag.String("website-addr", "localhost:5173", "where the website is served (its origin is the demo key's)")
	receiverAddr := flag.String("receiver-addr", "127.0.0.1:8075", "where the local webhook receiver listens (loopback only)")
	jaeger := flag.String("jaeger", "", "Jaeger binary to run and export traces to (make run JAEGER=1)")
	flag.Parse()

	opts := stack.Options{
		BinDir:              *binDir,
		BasePort:            *port,
		DatabasePrefix:      "podium",
		PostgresURL:         env("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"),
		RedisURL:            env("REDIS_URL", "redis://127.0.0.1:6379/0"),
		KafkaPort:           9092,
		StripeMock:          true,
		StripeMockPort:      12111,
		HostedCheckout:      true,
		SMTPPort:            1025,
		MailInboxPort:       8025,
		ConsolePort:         8090,
		StripeSecretKey:     os.Getenv("STRIPE_SECRET_KEY"),
		StripeWebhookSecret: os.Getenv("STRIPE_WEBHOOK_SECRET"),
		OTLPEndpoint:        os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT"),
		LogLevel:            env("LOG_LEVEL", "info"),
		Output:              os.Stdout,
	}
	if b := os.Getenv("KAFKA_BROKERS"); b != "" {
		opts.KafkaBrokers = strings.Split(b, ",")
	}
	if *jaeger != "" {
		endpoint, err := startJaeger(ctx, *jaeger)
		if err != nil {
			return err
		}
		opts.OTLPEndpoint = endpoint
	}
	s, err := stack.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer func() {
		fmt.Println("devstack: stopping")
		if err := s.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "devstack:", err)
		}
	}()
	demo, err := s.SeedDemo(ctx)
	if err != nil {
		return err
	}
	web, err := stack.ServeWebsite(*siteAddr, *site, stack.WebsiteConfig{GatewayURL: s.GatewayURL(), PublishableKey: demo.Publishable.Key})
	if err != nil {
		return err
	}
	defer web.Close()
	receiver, endpoint, err := startReceiver(ctx, s, demo, *receiverAddr)
	if err != nil {
		return err
	}
	defer receiver.Close()
	link, err := s.SignInLink(ctx, demo.OwnerEmail)
	if err != nil {
		return err
	}
	printSummary(s, demo, web.URL)
	printReceiver(s, demo, receiver, endpoint)
	printConsole(s, demo, link)
	<-ctx.Done()
	return nil
}

func printConsole(s *stack.Stack, d *stack.Demo, link string) {
	fmt.Printf(`
 Organizers' console: %[1]s (the API tab, members, audit log)
   Sign in as the demo owner %[2]s, once, within 15 minutes, in any browser:
     %[3]s
   Others sign in at %[1]s/signin; their links arrive in the mail inbox (%[4]s).
   The demo member %[5]s sees the keys and manages nothing.
   A new link for a member: AUTH_ADMIN_URL=%[6]s AUTH_OPERATOR_TOKEN=… bin/auth member sign-in-link --email EMAIL
================================================================================
`, s.ConsoleURL, d.OwnerEmail, link, s.MailInboxURL, d.MemberEmail, s.URLs["auth"])
}

func printSummary(s *stack.Stack, d *stack.Demo, website string) {
	fmt.Printf(`
================================================================================
 Podium is running.  Gateway: %[1]s   (Ctrl-C stops everything)

 auth %[2]s   catalog %[3]s   registration %[4]s   checkout %[5]s   webhooks %[18]s
 Kafka %[6]s   Redis %[7]s   Stripe %[8]s
 SMTP catcher %[15]s (each message received is logged below as "smtp")
 Mail inbox %[17]s (the messages received, newest first; their links can be clicked)
 API reference: %[1]s/external/v1/docs   (OpenAPI document: /external/v1/openapi.json)
 Demo organizer website: %[16]s (publishable key below; Stripe's hosted checkout is played by a
 local stand-in page when stripe-mock runs)

 Demo organizer %[9]s
   secret key, all scopes:       %[10]s
   secret key, events:read only: %[11]s
   publishable key (%[12]s): %[13]s
   test mode (test data only, no money moves, mail kept; docs/integration.md):
     secret key, all scopes:     %[19]s
     publishable key:            %[20]s
 Operator token for the auth and catalog admin APIs and CLIs: %[14]s

 Try:
   curl -s -X POST %[1]s/external/v1/organizer/events/search \
     -H 'Authorization: Bearer %[10]s' -H 'Content-Type: application/json' -d '{"limit": 10}'
   curl -s -X POST %[1]s/external/v1/browser/events/search \
     -H 'x-publishable-key: %[13]s' -H 'Origin: %[12]s' -H 'Content-Type: application/json' -d '{}'
`, s.GatewayURL(), s.URLs["auth"], s.URLs["catalog"], s.URLs["registration"], s.URLs["checkout"],
		strings.Join(s.KafkaBrokers, ","), s.RedisURL, stripeLabel(s), d.OrganizerID,
		d.SecretAll.Key, d.SecretEventsRead.Key, stack.DemoOrigin, d.Publishable.Key, s.OperatorToken, s.SMTPAddr, website, s.MailInboxURL, s.WebhooksURL(),
		d.TestSecret.Key, d.TestPublishable.Key)
	fmt.Printf("\n Demo events (services/catalog/demo; re-import with bin/catalog import, CATALOG_ADMIN_URL=%s):\n", s.URLs["catalog"])
	for _, id := range slices.Sorted(maps.Keys(d.Events)) {
		ev := d.Events[id]
		fmt.Printf("   %-18s %s  %-9s preview token %s\n", id, ev.ID, ev.Status, ev.PreviewToken)
	}
	fmt.Printf(`
 Pay a checkout session (its order id is in the session's answer) with Stripe's signed
 checkout.session.completed, as Stripe would (services/checkout README):
   DATABASE_URL='%s' STRIPE_WEBHOOK_SECRET='%s' \
     go run ./system/cmd/stripe-trigger --session ord_… --url %s/webhooks/stripe
`, s.DatabaseURL("checkout"), s.WebhookSecret, s.GatewayURL())
	fmt.Println("================================================================================")
}

// startReceiver starts the local webhook receiver page and registers it, through the organizer
// API with the demo's secret key, as the demo organizer's endpoint for every event type; each
// webhook it takes is logged as "webhook".
func startReceiver(ctx context.Context, s *stack.Stack, d *stack.Demo, addr string) (*stack.Receiver, stack.WebhookEndpoint, error) {
	r, err := stack.StartReceiver(addr, stack.ReceiverOptions{OnWebhook: func(w stack.Webhook) {
		fmt.Printf("%-12s %s %s verified=%t\n", "webhook", w.ID, w.Type, w.Verified)
	}})
	if err != nil {
		return nil, stack.WebhookEndpoint{}, err
	}
	e, err := s.RegisterReceiver(ctx, r, d.SecretAll.Key)
	if err != nil {
		_ = r.Close()
		return nil, stack.WebhookEndpoint{}, err
	}
	return r, e, nil
}

func printReceiver(s *stack.Stack, d *stack.Demo, r *stack.Receiver, e stack.WebhookEndpoint) {
	fmt.Printf(`
 Webhook receiver: %[1]s (what arrives, newest first, verified with the endpoint's secret;
 JSON at %[1]s/events; each one is logged below as "webhook")
   the demo organizer's endpoint %[2]s, every event type: a purchase on the demo website
   shows its order.completed there. Signing secret: %[3]s
   Its delivery log:
     curl -s %[4]s/external/v1/organizer/webhook-endpoints/%[2]s/deliveries -H 'Authorization: Bearer %[5]s'
`, r.URL, e.ID, e.Secret, s.GatewayURL(), d.SecretAll.Key)
}

// startJaeger runs Jaeger all-in-one (in memory) until ctx ends and returns its OTLP/HTTP
// endpoint once it listens.
func startJaeger(ctx context.Context, path string) (string, error) {
	cmd := exec.CommandContext(ctx, path)
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("jaeger: %w", err)
	}
	go cmd.Wait() //nolint:errcheck // ends with ctx
	dialer := net.Dialer{Timeout: time.Second}
	for range 100 {
		if conn, err := dialer.DialContext(ctx, "tcp", "127.0.0.1:4318"); err == nil {
			conn.Close()
			fmt.Println("devstack: Jaeger at http://127.0.0.1:16686 (traces: /api/traces?service=gateway)")
			return "http://127.0.0.1:4318", nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return "", errors.New("jaeger: OTLP/HTTP port 4318 not listening after 10s")
}

func stripeLabel(s *stack.Stack) string {
	if s.StripeURL != "" {
		return "stripe-mock at " + s.StripeURL
	}
	return "api.stripe.com (STRIPE_SECRET_KEY)"
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
