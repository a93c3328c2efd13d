// Package stack runs the whole system locally as processes: the six services built from this
// repository, an embedded Kafka-protocol broker (unless brokers are given), Postgres databases
// and Redis from the machine. `make run`, the end-to-end suite and the benchmarks all start the
// system through it, so what they exercise is what a developer runs.
package stack

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
)

// Services in start order; the gateway goes last, once its owners answer.
var Services = []string{"auth", "catalog", "registration", "checkout", "webhooks", "gateway"}

// withDatabase lists the services that own a Postgres database and have a migrate command.
var withDatabase = map[string]bool{"auth": true, "catalog": true, "registration": true, "checkout": true, "webhooks": true}

// Options configures Start.
type Options struct {
	// BinDir holds the service binaries (see Build).
	BinDir string
	// BasePort is the gateway's port; auth, catalog, registration, checkout and webhooks take
	// the next five and extra gateways the ones after. Zero picks free ports.
	BasePort int
	// DatabasePrefix names the databases (<prefix>_auth, ...). Empty picks a random prefix and
	// drops the databases at Stop.
	DatabasePrefix string
	// PostgresURL is the server the databases are created on (any database; it is replaced).
	PostgresURL string
	// RedisURL is used unless OwnRedis is set.
	RedisURL string
	// OwnRedis starts a private redis-server for the stack, which tests may stop and restart.
	OwnRedis bool
	// KafkaBrokers are used when set; otherwise an embedded broker starts on KafkaPort (0: any).
	KafkaBrokers []string
	KafkaPort    int
	// StripeMock starts stripe-mock on StripeMockPort (0: any) unless StripeSecretKey is set.
	StripeMock      bool
	StripeMockPort  int
	StripeSecretKey string
	// RecordStripe puts a recorder between checkout and stripe-mock (see StripeCalls).
	RecordStripe bool
	// HostedCheckout puts a stand-in for Stripe's hosted checkout page in front of stripe-mock
	// (hostedcheckout.go): each created session's url leads to a page of it whose "Pay" sends
	// Stripe's signed checkout.session.completed to the gateway. For make run and the browser
	// tests only.
	HostedCheckout bool
	// StripeWebhookSecret is the real account's signing secret; a random one is made otherwise.
	StripeWebhookSecret string
	// StripeTestSecretKey is the real account's test-mode key, used with StripeSecretKey.
	StripeTestSecretKey string
	// SMTPPort is where the SMTP catcher listens (0: any).
	SMTPPort int
	// ConsolePort is where auth serves the organizers' console (0: any free port).
	ConsolePort int
	// MailInboxPort serves the SMTP catcher's inbox page (mailcatch.Catcher.Inbox) over HTTP:
	// 0 not at all, -1 on any free port.
	MailInboxPort int
	// OTLPEndpoint receives every service's traces when set.
	OTLPEndpoint string
	// ExtraGateways starts further gateway instances on their own ports.
	ExtraGateways int
	// Faults puts a fault proxy (toxiproxy, in this process) between the services and Postgres
	// (one per service's database), Redis and the embedded broker, and a front before each owner
	// service that its callers use and that spreads their connections over its instances
	// (AddInstance). Tests take links down with Cut and bring them back with Restore, and move
	// the webhooks service's clock with AdvanceWebhooksClock. It needs the embedded broker.
	Faults bool
	// Env adds variables per service name ("gateway", ...), after the defaults.
	Env map[string][]string
	// LogLevel of every service; Output receives their logs, each line prefixed by its service.
	LogLevel string
	Output   io.Writer
}

// Stack is a running system.
type Stack struct {
	opts          Options
	GatewayURLs   []string
	URLs          map[string]string
	OperatorToken string
	// ConsoleCookieKey signs the known-browser markers of auth's console (CONSOLE_COOKIE_KEY),
	// the same for every auth instance.
	ConsoleCookieKey string
	// WebhookSecret signs Stripe webhooks sent to the local stack (checkout's STRIPE_WEBHOOK_SECRET).
	WebhookSecret string
	// TestWebhookSecret signs the Stripe webhooks of test-mode payments
	// (checkout's STRIPE_TEST_WEBHOOK_SECRET), made for each run.
	TestWebhookSecret string
	// webhooksSecretsKey encrypts the webhook endpoints' secrets at rest (webhooks' SECRETS_KEY),
	// made for each run.
	webhooksSecretsKey string
	// identityKeys are the key pairs of the services that sign identity tokens, by name.
	identityKeys map[string]keyPair
	KafkaBrokers []string
	RedisURL     string
	databases    map[string]string
	kafka        *kfake.Cluster
	redis        *process
	redisPort    int
	stripeMock   *process
	// stripeRecorder sees checkout's Stripe requests when Options.RecordStripe is set.
	stripeRecorder *stripeRecorder
	// stripeLinkURL is the fault proxy's address in front of Stripe (Options.Faults), empty without.
	stripeLinkURL string
	mail          *mailcatch.Catcher
	mailInbox     *http.Server
	// SMTPAddr is the SMTP catcher's address.
	SMTPAddr string
	// MailInboxURL is where the SMTP catcher's inbox page is served, empty unless
	// Options.MailInboxPort is set.
	MailInboxURL string
	// ConsoleURL is the organizers' console, on localhost (browsers keep its Secure cookies
	// there over plain http).
	ConsoleURL string
	// StripeURL is stripe-mock's base URL when it runs.
	StripeURL     string
	procs         []*process
	dropDatabases bool
	// faults, serviceDatabases and serviceRedisURL are the fault proxies of Options.Faults and
	// the addresses through them that the services are given.
	faults           *faultNet
	serviceDatabases map[string]string
	serviceRedisURL  string
	// webhooksClock is the webhooks service's shifted clock under Options.Faults.
	webhooksClock *shiftClock
	// waitlistClock is registration's waitlist clock (AdvanceWaitlistClock).
	waitlistClock *shiftClock
}

// GatewayURL is the first gateway's base URL.
func (s *Stack) GatewayURL() string { return s.GatewayURLs[0] }

// Start brings the system up and returns once every service is ready.
func Start(ctx context.Context, o Options) (*Stack, error) {
	if o.Output == nil {
		o.Output = io.Discard
	}
	if o.LogLevel == "" {
		o.LogLevel = "info"
	}
	s := &Stack{opts: o, URLs: map[string]string{}, databases: map[string]string{}, serviceDatabases: map[string]string{}}
	if err := s.start(ctx); err != nil {
		return nil, errors.Join(err, s.Stop())
	}
	return s, nil
}

func (s *Stack) start(ctx context.Context) error {
	o := s.opts
	if err := s.secrets(); err != nil {
		return err
	}
	if err := s.startInfra(ctx); err != nil {
		return err
	}
	if err := s.startMail(); err != nil {
		return err
	}
	if err := s.startStripeMock(ctx); err != nil {
		return err
	}
	if err := s.createDatabases(ctx); err != nil {
		return err
	}
	if err := s.startFaults(); err != nil {
		return err
	}
	wc, err := newShiftClock("waitlist")
	if err != nil {
		return err
	}
	s.waitlistClock = wc
	ports, err := s.ports()
	if err != nil {
		return err
	}
	if err := s.consoleAddress(); err != nil {
		return err
	}
	s.planURLs(ports)
	for i, name := range Services {
		if err := s.startService(ctx, name, name, ports[i]); err != nil {
			return err
		}
	}
	for i := range o.ExtraGateways {
		name := "gateway-" + strconv.Itoa(i+2)
		if err := s.startService(ctx, name, "gateway", ports[len(Services)+i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *Stack) secrets() error {
	s.identityKeys = map[string]keyPair{}
	for _, name := range signers {
		pub, priv, err := identity.GenerateKey()
		if err != nil {
			return err
		}
		s.identityKeys[name] = keyPair{public: pub, private: priv}
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	s.webhooksSecretsKey = base64.StdEncoding.EncodeToString(key)
	s.OperatorToken = "op_" + randomHex(24)
	s.ConsoleCookieKey = randomHex(32)
	s.WebhookSecret = s.opts.StripeWebhookSecret
	s.TestWebhookSecret = "whsec_" + randomHex(24)
	if s.WebhookSecret == "" {
		s.WebhookSecret = "whsec_" + randomHex(24)
	}
	return nil
}

func (s *Stack) startInfra(ctx context.Context) error {
	if err := s.startKafka(); err != nil {
		return err
	}
	s.RedisURL = s.opts.RedisURL
	if s.opts.OwnRedis {
		port, err := FreePort()
		if err != nil {
			return err
		}
		s.redisPort = port
		s.RedisURL = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
		if err := s.StartRedis(ctx); err != nil {
			return err
		}
	}
	return nil
}

// startKafka starts the embedded broker unless brokers are given; under Options.Faults it
// advertises the address of a fault proxy in front of it.
func (s *Stack) startKafka() error {
	s.KafkaBrokers = s.opts.KafkaBrokers
	if s.opts.Faults {
		if len(s.KafkaBrokers) > 0 {
			return errors.New("stack: Options.Faults needs the embedded broker")
		}
		s.faults = newFaultNet()
	}
	if len(s.KafkaBrokers) > 0 {
		return nil
	}
	opts := []kfake.Opt{kfake.NumBrokers(1), kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(3)}
	if s.opts.KafkaPort != 0 {
		opts = append(opts, kfake.Ports(s.opts.KafkaPort))
	}
	var proxyAddr, real string
	if s.faults != nil {
		port, err := FreePort()
		if err != nil {
			return err
		}
		proxyAddr = fmt.Sprintf("127.0.0.1:%d", port)
		opts = append(opts, kfake.ListenFn(kafkaListen(proxyAddr, &real)))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return fmt.Errorf("stack: embedded Kafka-protocol broker: %w", err)
	}
	s.kafka, s.KafkaBrokers = c, c.ListenAddrs()
	if s.faults != nil {
		_, err = s.faults.proxy(KafkaLink, proxyAddr, real)
	}
	return err
}

// startFaults starts the fault proxies of the databases and Redis and the owners' fronts.
func (s *Stack) startFaults() error {
	if s.faults == nil {
		return nil
	}
	if err := s.startFaultProxies(); err != nil {
		return err
	}
	c, err := newShiftClock("webhooks")
	if err != nil {
		return err
	}
	s.webhooksClock = c
	for _, svc := range Services {
		if svc == "gateway" {
			continue
		}
		f, err := startFront()
		if err != nil {
			return err
		}
		s.faults.fronts[svc] = f
		s.URLs[svc] = f.url()
	}
	return nil
}

// planURLs fixes the owners' addresses before any starts, so that a service started before a
// peer it calls knows where it will be (auth calls webhooks, which calls auth); under
// Options.Faults their fronts' addresses are fixed already.
func (s *Stack) planURLs(ports []int) {
	for i, svc := range Services {
		if _, fixed := s.URLs[svc]; !fixed && svc != "gateway" {
			s.URLs[svc] = fmt.Sprintf("http://127.0.0.1:%d", ports[i])
		}
	}
}

// ports returns the port of each service in Services order, then of each extra gateway. With a
// base port the gateway takes it, auth and the owners the next five, extra gateways the rest.
func (s *Stack) ports() ([]int, error) {
	out := make([]int, len(Services)+s.opts.ExtraGateways)
	for i := range out {
		gateway := len(Services) - 1
		switch {
		case s.opts.BasePort == 0:
			p, err := FreePort()
			if err != nil {
				return nil, err
			}
			out[i] = p
		case i < gateway:
			out[i] = s.opts.BasePort + 1 + i
		case i == gateway:
			out[i] = s.opts.BasePort
		default:
			out[i] = s.opts.BasePort + i
		}
	}
	return out, nil
}

// Stop stops the services in reverse order, then the infrastructure, and drops the databases a
// test stack created.
func (s *Stack) Stop() error {
	var errs []error
	for i := len(s.procs) - 1; i >= 0; i-- {
		errs = append(errs, s.procs[i].stop(20*time.Second))
	}
	for _, p := range []*process{s.redis, s.stripeMock} {
		if p != nil {
			errs = append(errs, p.stop(5*time.Second))
		}
	}
	if s.faults != nil {
		s.faults.close()
	}
	if s.webhooksClock != nil {
		errs = append(errs, s.webhooksClock.close())
	}
	if s.waitlistClock != nil {
		errs = append(errs, s.waitlistClock.close())
	}
	if s.kafka != nil {
		s.kafka.Close()
	}
	errs = append(errs, s.stopMail())
	if s.stripeRecorder != nil {
		errs = append(errs, s.stripeRecorder.srv.Close())
	}
	if s.dropDatabases {
		errs = append(errs, s.dropAll(context.Background()))
	}
	return errors.Join(errs...)
}

// waitReady polls url/readyz until it answers 200, the process exits or ctx ends.
func waitReady(ctx context.Context, p *process, url string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if p.exited() {
			return fmt.Errorf("stack: %s exited during start-up: %w", p.name, p.err)
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/readyz", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("stack: %s not ready within 60s", p.name)
}

// FreePort returns a port on 127.0.0.1 nothing listens on now.
func FreePort() (int, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func bin(dir, name string) string { return filepath.Join(dir, name) }

// PID returns the process id of the named service instance ("gateway", "catalog", ...).
func (s *Stack) PID(name string) int {
	for _, p := range s.procs {
		if p.name == name {
			return p.cmd.Process.Pid
		}
	}
	return 0
}

// IdentityToken mints an internal identity token as the gateway would for the service named
// audience, for calling an owner directly (benchmarks compare the two paths). It lives an hour,
// not the gateway's minute, so that a benchmark's baseline requests outlast all its rounds.
func (s *Stack) IdentityToken(audience string, p identity.Principal) (string, error) {
	key, err := identity.ParsePrivateKey(s.identityKeys[identity.Gateway].private)
	if err != nil {
		return "", err
	}
	return identity.NewSigner(identity.Gateway, key, time.Hour).Token(audience, p)
}
