package edge

import (
	"context"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/gateway/internal/admission"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// BenchmarkProxied measures what the gateway adds to an organizer GET and to a typical
// registration create (one athlete): each request sent to the same owner over a real connection
// by a bare fasthttp proxy (the baseline: it only sets the owner's identity headers) and through
// the gateway's routes (the key, its scope, the per-key limit over Redis, the owner's admission,
// for the create its body's validation, the identity token, the allowlisted headers, the request
// id and the duration metric, without a span, as without a trace exporter). The difference in
// cpu-ns/op and allocs/op is the gateway's own cost.
func BenchmarkProxied(b *testing.B) {
	h, srv, addr := benchGateway(b, Limits{PerKey: ratelimit.Limit{Rate: 1_000_000, Burst: 1_000_000, Period: 1e9}}, admission.Options{InitialLimit: 64, MaxLimit: 1024})
	token, err := h.gw.Signer.Token(Catalog, identity.Principal{OrganizerID: "org_bench", KeyID: "key_bench", KeyType: identity.Secret})
	if err != nil {
		b.Fatal(err)
	}
	owner := &fasthttp.HostClient{Addr: addr, MaxConns: 1024, DisablePathNormalizing: true}
	bare := func(c *fasthttp.RequestCtx) {
		c.Request.Header.Del(fasthttp.HeaderAuthorization)
		c.Request.Header.Set(identity.Header, token)
		c.Request.Header.Set(identity.HeaderClientIP, "127.0.0.1")
		if err := owner.Do(&c.Request, &c.Response); err != nil {
			c.SetStatusCode(fasthttp.StatusBadGateway)
		}
	}
	for _, req := range []benchRequest{
		{"GET", fasthttp.MethodGet, "/organizer/events/evt_bench", nil},
		{"create", fasthttp.MethodPost, "/organizer/registrations", typicalCreate},
	} {
		for _, tc := range []struct {
			name    string
			handler fasthttp.RequestHandler
		}{{"bare-proxy", bare}, {"gateway", srv.App.Handler()}} {
			b.Run(req.name+"/"+tc.name, func(b *testing.B) { runBenchRequests(b, h, tc.handler, req, fasthttp.StatusOK) })
		}
	}
}

// BenchmarkRefused measures what the gateway spends on an organizer GET it refuses, by the
// key's rate limit (429, the refusal remembered until its retry time, so Redis is not asked) and
// by its owner's full admission limit (503), beside the same GET served in the same run: a
// refusal should cost a fraction of what serving costs.
func BenchmarkRefused(b *testing.B) {
	get := benchRequest{"GET", fasthttp.MethodGet, "/organizer/events/evt_bench", nil}
	unlimited := Limits{PerKey: ratelimit.Limit{Rate: 1_000_000, Burst: 1_000_000, Period: 1e9}}
	roomy := admission.Options{InitialLimit: 64, MaxLimit: 1024}
	b.Run("served", func(b *testing.B) {
		h, srv, _ := benchGateway(b, unlimited, roomy)
		runBenchRequests(b, h, srv.App.Handler(), get, fasthttp.StatusOK)
	})
	b.Run("rate-limited", func(b *testing.B) {
		h, srv, _ := benchGateway(b, Limits{PerKey: ratelimit.Limit{Rate: 1, Burst: 1, Period: time.Hour}}, roomy)
		var first fasthttp.RequestCtx // spends the key's one request of the hour
		first.Init(&fasthttp.Request{}, &net.TCPAddr{IP: net.IPv4(0, 0, 0, 0), Port: 50000}, nil)
		sendBenchRequest(b, &first, h, srv.App.Handler(), get, fasthttp.StatusOK)
		runBenchRequests(b, h, srv.App.Handler(), get, fasthttp.StatusTooManyRequests)
	})
	b.Run("shed", func(b *testing.B) {
		h, srv, _ := benchGateway(b, unlimited, admission.Options{MinLimit: 1, InitialLimit: 1, MaxLimit: 1})
		if _, err := h.gw.Admission.Admit(b.Context(), Catalog, admission.Payments); err != nil { // the only place, kept
			b.Fatal(err)
		}
		runBenchRequests(b, h, srv.App.Handler(), get, fasthttp.StatusServiceUnavailable)
	})
}

// benchGateway is a gateway with limits and admission whose owners are one plain owner (see
// startPlainOwner, at the address returned), its routes on a server's app, as a gateway runs
// without a trace exporter (telemetry installs the no-op provider).
func benchGateway(b *testing.B, limits Limits, admit admission.Options) (*harness, *httpserver.Server, string) {
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(noop.NewTracerProvider())
	b.Cleanup(func() { otel.SetTracerProvider(prev) })
	h := newHarness(b, limits)
	h.gw.Admission = admission.New(ownerNames, admit)
	srv := httpserver.New(httpserver.Options{Log: testkit.Logger(b), BodyLimit: BodyLimit()})
	if err := h.gw.Register(srv.App); err != nil {
		b.Fatal(err)
	}
	addr := startPlainOwner(b)
	for _, u := range h.gw.Upstreams {
		*u = *mustUpstream(b, u.Name, "http://"+addr)
	}
	return h, srv, addr
}

// A benchRequest is an organizer request a benchmark sends with the harness's secret key.
type benchRequest struct {
	name, method, path string
	body               []byte
}

// runBenchRequests sends req to handler from four goroutines per core, each answer expected
// with status, and reports the CPU per request besides the time.
func runBenchRequests(b *testing.B, h *harness, handler fasthttp.RequestHandler, req benchRequest, status int) {
	b.ReportAllocs()
	b.SetParallelism(4)
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		var c fasthttp.RequestCtx
		c.Init(&fasthttp.Request{}, &net.TCPAddr{IP: net.IPv4(0, 0, 0, 0), Port: 50000}, nil)
		for pb.Next() {
			sendBenchRequest(b, &c, h, handler, req, status)
		}
	})
}

// sendBenchRequest sends req to handler in c, as the server would, and expects status.
func sendBenchRequest(b *testing.B, c *fasthttp.RequestCtx, h *harness, handler fasthttp.RequestHandler, req benchRequest, status int) {
	c.Request.Reset()
	c.Response.Reset()
	c.ResetUserValues() // as the server does between requests
	c.Request.Header.SetMethod(req.method)
	c.Request.SetRequestURI(BasePath + req.path)
	c.Request.Header.SetHost("gateway")
	c.Request.Header.Set(fasthttp.HeaderAuthorization, "Bearer "+h.secret)
	c.Request.Header.Set(fasthttp.HeaderXForwardedFor, "203.0.113.9")
	if req.body != nil {
		c.Request.Header.SetContentType("application/json")
		c.Request.SetBodyRaw(req.body)
	}
	handler(c)
	if c.Response.StatusCode() != status {
		b.Fatalf("status %d, want %d: %s", c.Response.StatusCode(), status, c.Response.Body())
	}
}

// typicalCreate is a create as organizer backends send most of them: one athlete.
var typicalCreate = []byte(`{"eventId":"evt_00000000000000000001","categoryId":"cat_00000000000000000001","teamName":"Ana García",` +
	`"club":"Madrid","athletes":[{"fullname":"Ana García","idNumber":"12345678Z","email":"ana@example.com",` +
	`"phone":"+34600000000","gender":"FEMALE","birthDate":"1990-05-01"}]}`)

// startPlainOwner serves a fixed small JSON answer on a real listener, so that what the
// benchmark compares is what each proxy does, not what the owner does.
func startPlainOwner(b *testing.B) string {
	ln, err := (&net.ListenConfig{}).Listen(b.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"id":"evt_bench","name":"Bench Open","status":"PUBLISHED"}`)
	srv := &fasthttp.Server{Handler: func(c *fasthttp.RequestCtx) {
		c.SetContentType("application/json")
		c.Response.Header.Set("Cache-Control", "no-store")
		c.SetBody(body)
	}}
	testkit.Background(b, func(ctx context.Context) error {
		go func() { <-ctx.Done(); _ = srv.Shutdown() }()
		return srv.Serve(ln)
	})
	return ln.Addr().String()
}

func mustUpstream(b *testing.B, name, url string) *proxy.Upstream {
	u, err := proxy.New(name, url, 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	return u
}

// reportCPU reports the process's CPU time per operation (every thread: the proxy, the owner and
// the client loop), from the call until the returned function runs: unlike ns/op, it does not
// grow when other processes take the machine's cores.
func reportCPU(b *testing.B) func() {
	start := cpuTime(b)
	return func() { b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
