package delivery_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// receiver is an HTTPS server on a loopback listener that counts the connections it accepts.
// The clients it makes reach it only through their injected dial, which lands every
// connection here whatever address the guard allowed it for: anything the guard wrongly
// allows is counted, never sent anywhere else.
type receiver struct {
	srv   *httptest.Server
	conns atomic.Int64
	mu    sync.Mutex
	// dialed are the addresses the guard let the client connect to, in order.
	dialed []string
}

type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func newReceiver(t *testing.T, h http.Handler) *receiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{}
	r.srv = httptest.NewUnstartedServer(h)
	r.srv.Listener = countingListener{Listener: ln, n: &r.conns}
	r.srv.StartTLS()
	t.Cleanup(r.srv.Close)
	return r
}

// dial is the client's dial under the guard: it records the address and connects to the
// receiver's listener instead.
func (r *receiver) dial(ctx context.Context, network, address string) (net.Conn, error) {
	r.mu.Lock()
	r.dialed = append(r.dialed, address)
	r.mu.Unlock()
	var d net.Dialer
	return d.DialContext(ctx, network, r.srv.Listener.Addr().String())
}

func (r *receiver) dialedAddresses() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.dialed...)
}

// client returns a client that trusts the receiver's certificate (valid for example.com and
// its subdomains) and reaches it through dial, with resolver for names.
func (r *receiver) client(resolver delivery.Resolver, allowLoopback bool) *delivery.Client {
	roots := x509.NewCertPool()
	roots.AddCert(r.srv.Certificate())
	return delivery.NewClient(delivery.ClientOptions{
		AllowLoopbackReceivers: allowLoopback, Resolver: resolver, Dial: r.dial, RootCAs: roots,
	})
}

// resolver answers each name with its answers in turn, the last one again once they run out.
type resolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	asked   map[string]int
}

func newResolver(answers map[string][][]string) *resolver {
	return &resolver{answers: answers, asked: map[string]int{}}
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	answers, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(r.asked[host], len(answers)-1)
	r.asked[host]++
	var addrs []netip.Addr
	for _, s := range answers[i] {
		addrs = append(addrs, netip.MustParseAddr(s))
	}
	return addrs, nil
}

// publicAddr is the address the tests' public names resolve to.
const publicAddr = "93.184.215.14"

// send makes one attempt of a small message to url.
func send(c *delivery.Client, url string) delivery.Response {
	return c.Send(context.Background(), delivery.Request{
		URL: url, MessageID: "msg_test", Body: []byte(`{"type":"ping"}`), Secrets: []delivery.Secret{delivery.NewSecret()},
	})
}

func describe(res delivery.Response) string {
	return fmt.Sprintf("status %d, err %v", res.StatusCode, res.Err)
}
