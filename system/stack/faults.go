package stack

import (
	"fmt"
	"net"
	"net/url"
	"sort"
	"strconv"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// faultNet is what Options.Faults puts between the services and what they use: a toxiproxy
// proxy in front of each service's Postgres database, Redis and the embedded broker, and a
// front per owner service that its callers reach it through.
type faultNet struct {
	server  *toxiproxy.ApiServer
	proxies map[string]*toxiproxy.Proxy
	fronts  map[string]*front
}

func newFaultNet() *faultNet {
	return &faultNet{
		server:  toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop()),
		proxies: map[string]*toxiproxy.Proxy{},
		fronts:  map[string]*front{},
	}
}

// proxy starts the proxy name listening on listen ("127.0.0.1:0" for any port) and forwarding
// to upstream, and returns the address it listens on.
func (f *faultNet) proxy(name, listen, upstream string) (string, error) {
	p := toxiproxy.NewProxy(f.server, name, listen, upstream)
	if err := p.Start(); err != nil {
		return "", fmt.Errorf("stack: fault proxy %s: %w", name, err)
	}
	f.proxies[name] = p
	return p.Listen, nil
}

func (f *faultNet) close() {
	for _, p := range f.proxies {
		p.Stop()
	}
	for _, fr := range f.fronts {
		fr.close()
	}
}

// Link names of the fault proxies: PostgresLink(svc) for a service's database, RedisLink and
// KafkaLink for the gateway's Redis and every service's broker, StripeLink for checkout's
// Stripe (the recorder, or stripe-mock).
const (
	RedisLink  = "redis"
	KafkaLink  = "kafka"
	StripeLink = "stripe"
)

// PostgresLink names the fault proxy between service svc and its database.
func PostgresLink(svc string) string { return "postgres/" + svc }

// Links lists the fault proxies of a stack started with Options.Faults.
func (s *Stack) Links() []string {
	if s.faults == nil {
		return nil
	}
	var out []string
	for name := range s.faults.proxies {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Proxy returns the fault proxy name (see Links) for adding toxics, or nil.
func (s *Stack) Proxy(name string) *toxiproxy.Proxy {
	if s.faults == nil {
		return nil
	}
	return s.faults.proxies[name]
}

// Cut takes the link name down as an outage would: its listener closes (new connections are
// refused) and every connection through it is closed.
func (s *Stack) Cut(name string) error {
	p := s.Proxy(name)
	if p == nil {
		return fmt.Errorf("stack: no fault proxy %q (Options.Faults)", name)
	}
	p.Stop()
	return nil
}

// Restore brings a link Cut took down back, on the same address.
func (s *Stack) Restore(name string) error {
	p := s.Proxy(name)
	if p == nil {
		return fmt.Errorf("stack: no fault proxy %q (Options.Faults)", name)
	}
	return p.Start()
}

// startFaultProxies puts a proxy between each service and its database and between the gateway
// and Redis (the broker's is made with it, see kafkaListen).
func (s *Stack) startFaultProxies() error {
	for svc, dbURL := range s.databases {
		u, err := url.Parse(dbURL)
		if err != nil {
			return err
		}
		addr, err := s.faults.proxy(PostgresLink(svc), "127.0.0.1:0", hostPort(u, "5432"))
		if err != nil {
			return err
		}
		u.Host = addr
		s.serviceDatabases[svc] = u.String()
	}
	if err := s.startStripeLink(); err != nil {
		return err
	}
	if s.RedisURL == "" {
		return nil
	}
	u, err := url.Parse(s.RedisURL)
	if err != nil {
		return err
	}
	addr, err := s.faults.proxy(RedisLink, "127.0.0.1:0", hostPort(u, "6379"))
	if err != nil {
		return err
	}
	u.Host = addr
	s.serviceRedisURL = u.String()
	return nil
}

// startStripeLink puts a proxy between checkout and its Stripe, when one runs.
func (s *Stack) startStripeLink() error {
	base := s.stripeAPIBase()
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	addr, err := s.faults.proxy(StripeLink, "127.0.0.1:0", hostPort(u, "80"))
	if err != nil {
		return err
	}
	u.Host = addr
	s.stripeLinkURL = u.String()
	return nil
}

func hostPort(u *url.URL, defaultPort string) string {
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), defaultPort)
	}
	return u.Host
}

// kafkaListen is the embedded broker's listen function under Options.Faults: the broker
// listens where it likes but advertises the address of the kafka fault proxy in front of it,
// so that clients, which connect to the advertised address after bootstrapping, always go
// through the proxy. It records the broker's own address for the proxy to forward to.
func kafkaListen(proxyAddr string, real *string) func(network, address string) (net.Listener, error) {
	return func(network, address string) (net.Listener, error) {
		ln, err := net.Listen(network, address) //nolint:noctx // kfake's listen function has no context
		if err != nil {
			return nil, err
		}
		*real = ln.Addr().String()
		return advertised{Listener: ln, addr: proxyAddr}, nil
	}
}

// advertised is a listener that reports another address than its own.
type advertised struct {
	net.Listener
	addr string
}

// Addr returns the advertised address.
func (a advertised) Addr() net.Addr {
	host, port, _ := net.SplitHostPort(a.addr)
	p, _ := strconv.Atoi(port)
	return &net.TCPAddr{IP: net.ParseIP(host), Port: p}
}
