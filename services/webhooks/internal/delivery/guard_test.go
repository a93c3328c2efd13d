package delivery_test

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// closing answers 200 and closes each connection, so every request dials again.
var closing = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Connection", "close")
})

func TestForbiddenReceiversAreRefusedWithoutAConnection(t *testing.T) {
	rcv := newReceiver(t, closing)
	dns := newResolver(map[string][][]string{
		"private.example.com":  {{"10.1.2.3"}},
		"metadata.example.com": {{"169.254.169.254", "fd00:ec2::254"}},
		"mapped.example.com":   {{"::ffff:127.0.0.1"}},
		"mixed.example.com":    {{"192.168.0.7", "100.64.1.1", "fe80::1"}},
		"receiver.example.com": {{publicAddr}},
	})
	for _, loopbackAllowed := range []bool{false, true} {
		c := rcv.client(dns, loopbackAllowed)
		urls := []string{
			"https://10.0.0.1/hook",
			"https://169.254.169.254/latest/meta-data/",
			"https://[::ffff:10.0.0.1]/hook",
			"https://[fd00:ec2::254]/hook",
			"https://100.100.100.200/hook",
			"https://private.example.com/hook",
			"https://metadata.example.com/hook",
			"https://mixed.example.com/hook",
			"http://receiver.example.com/hook",
			"https://user:pass@receiver.example.com/hook",
		}
		if !loopbackAllowed {
			urls = append(urls, "https://127.0.0.1/hook", "https://[::1]/hook", "https://[::ffff:127.0.0.1]/hook",
				"https://mapped.example.com/hook", "https://localhost/hook", "http://127.0.0.1/hook")
		}
		for _, url := range urls {
			if res := send(c, url); res.Err == nil {
				t.Errorf("loopback allowed %v: %s was sent (%s)", loopbackAllowed, url, describe(res))
			}
		}
	}
	if n := rcv.conns.Load(); n != 0 {
		t.Fatalf("the receiver accepted %d connections, want none", n)
	}
	if d := rcv.dialedAddresses(); len(d) != 0 {
		t.Fatalf("the guard let the client dial %v", d)
	}

	// The listener does count what the guard allows.
	res := send(rcv.client(dns, false), "https://receiver.example.com/hook")
	if res.Err != nil || res.StatusCode != http.StatusOK || rcv.conns.Load() != 1 {
		t.Fatalf("a public receiver: %s, %d connections; want 200 over one", describe(res), rcv.conns.Load())
	}
	if d := rcv.dialedAddresses(); !slices.Equal(d, []string{publicAddr + ":443"}) {
		t.Fatalf("dialed %v, want the public address", d)
	}
}

func TestARefusedAddressSaysWhy(t *testing.T) {
	rcv := newReceiver(t, closing)
	dns := newResolver(map[string][][]string{"private.example.com": {{"10.1.2.3"}}})
	res := send(rcv.client(dns, false), "https://private.example.com/hook")
	var refused *delivery.RefusedAddressError
	if !errors.As(res.Err, &refused) || refused.Addr.String() != "10.1.2.3" || !strings.Contains(res.Err.Error(), "private") {
		t.Fatalf("err %v, want the private address refused", res.Err)
	}
	if strings.Contains(res.Err.Error(), "/hook") {
		t.Fatalf("err %q names the URL", res.Err)
	}
}

func TestANameThatResolvesElsewhereLaterIsRefusedWhenConnecting(t *testing.T) {
	rcv := newReceiver(t, closing)
	dns := newResolver(map[string][][]string{"rebind.example.com": {{publicAddr}, {"10.0.0.1"}, {"::1"}}})
	c := rcv.client(dns, false)
	url := "https://rebind.example.com/hook"
	if err := delivery.ValidateURL(url, false); err != nil {
		t.Fatalf("ValidateURL(%s) = %v", url, err)
	}
	if res := send(c, url); res.StatusCode != http.StatusOK || rcv.conns.Load() != 1 {
		t.Fatalf("first attempt: %s, %d connections; want 200 over one", describe(res), rcv.conns.Load())
	}
	for range 2 {
		if res := send(c, url); res.Err == nil {
			t.Fatalf("after the name moved to a private address: %s, want refused", describe(res))
		}
	}
	if n := rcv.conns.Load(); n != 1 {
		t.Fatalf("the receiver accepted %d connections, want only the first", n)
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	var landed atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/landing", func(http.ResponseWriter, *http.Request) { landed.Add(1) })
	for path, to := range map[string]string{
		"/to-private":  "https://10.0.0.1/landing",
		"/to-metadata": "http://169.254.169.254/latest/meta-data/",
		"/to-itself":   "https://receiver.example.com/landing",
		"/to-loopback": "http://127.0.0.1/landing",
		"/permanent":   "https://receiver.example.com/landing",
	} {
		code := http.StatusFound
		if path == "/permanent" {
			code = http.StatusPermanentRedirect
		}
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Connection", "close")
			http.Redirect(w, r, to, code)
		})
	}
	rcv := newReceiver(t, mux)
	c := rcv.client(newResolver(map[string][][]string{"receiver.example.com": {{publicAddr}}}), true)
	for _, path := range []string{"/to-private", "/to-metadata", "/to-itself", "/to-loopback", "/permanent"} {
		res := send(c, "https://receiver.example.com"+path)
		if res.Err != nil || res.StatusCode < 300 || res.StatusCode > 399 {
			t.Fatalf("%s: %s, want its redirect as the answer", path, describe(res))
		}
		a := delivery.Attempt{N: 1, Step: 1, First: t0, StartedAt: t0, Response: res}
		if o := delivery.Decide(a, nil, t0, middle); o.Kind != delivery.KindRedirect || o.Status != delivery.Pending {
			t.Fatalf("%s: outcome %+v, want a failed attempt (redirect not followed)", path, o)
		}
	}
	if n, want := rcv.conns.Load(), int64(5); n != want || landed.Load() != 0 {
		t.Fatalf("%d connections and %d landings, want %d and none", n, landed.Load(), want)
	}
}

func TestLoopbackReceiversOnlyWhenAllowed(t *testing.T) {
	rcv := newReceiver(t, closing)
	port := ":" + strconv.Itoa(rcv.srv.Listener.Addr().(*net.TCPAddr).Port)
	dns := newResolver(map[string][][]string{"localhost": {{"127.0.0.1"}}})
	for _, url := range []string{"https://127.0.0.1" + port + "/hook", "https://localhost" + port + "/hook", "https://[::1]" + port + "/hook"} {
		if res := send(rcv.client(dns, false), url); res.Err == nil {
			t.Fatalf("%s without loopback allowed: %s", url, describe(res))
		}
		if rcv.conns.Load() != 0 {
			t.Fatalf("%s without loopback allowed made a connection", url)
		}
	}
	for i, url := range []string{"https://127.0.0.1" + port + "/hook", "https://[::1]" + port + "/hook"} {
		if res := send(rcv.client(dns, true), url); res.Err != nil {
			t.Fatalf("%s with loopback allowed: %s", url, describe(res))
		}
		if n := rcv.conns.Load(); n != int64(i+1) {
			t.Fatalf("%s with loopback allowed: %d connections", url, n)
		}
	}
}

func TestAnAttemptEndsAtItsTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	rcv := newReceiver(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	roots := rcv.srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := delivery.NewClient(delivery.ClientOptions{
		Resolver: newResolver(map[string][][]string{"slow.example.com": {{publicAddr}}}),
		Dial:     rcv.dial, RootCAs: roots, Timeout: 100 * time.Millisecond,
	})
	res := send(c, "https://slow.example.com/hook")
	if !errors.Is(res.Err, delivery.ErrTimeout) || res.StatusCode != 0 {
		t.Fatalf("%s, want a timeout", describe(res))
	}
}

func TestTheAnswerIsReadToABoundAndItsStartKept(t *testing.T) {
	long := strings.Repeat("é", 3000) // 6000 bytes
	rcv := newReceiver(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("\x00" + long))
	}))
	c := rcv.client(newResolver(map[string][][]string{"receiver.example.com": {{publicAddr}}}), false)
	res := send(c, "https://receiver.example.com/hook")
	if res.StatusCode != http.StatusServiceUnavailable || res.RetryAfter != "7" {
		t.Fatalf("%s, Retry-After %q", describe(res), res.RetryAfter)
	}
	if len(res.Excerpt) > 1024 || len(res.Excerpt) < 1022 || !strings.HasPrefix(long, res.Excerpt) {
		t.Fatalf("excerpt of %d bytes %q…, want the body's first KiB without NUL, cut between characters", len(res.Excerpt), res.Excerpt[:min(20, len(res.Excerpt))])
	}
}

func TestNoProxyIsTakenFromTheEnvironment(t *testing.T) {
	t.Setenv("HTTPS_PROXY", "http://10.9.9.9:3128")
	t.Setenv("HTTP_PROXY", "http://10.9.9.9:3128")
	rcv := newReceiver(t, closing)
	c := rcv.client(newResolver(map[string][][]string{"receiver.example.com": {{publicAddr}}}), false)
	if res := send(c, "https://receiver.example.com/hook"); res.StatusCode != http.StatusOK {
		t.Fatal(describe(res))
	}
	if d := rcv.dialedAddresses(); !slices.Equal(d, []string{publicAddr + ":443"}) {
		t.Fatalf("dialed %v, want the receiver directly", d)
	}
}

func TestEndpointURLsAreValidated(t *testing.T) {
	for _, c := range []struct {
		url           string
		allowLoopback bool
		ok            bool
	}{
		{"https://hooks.example.com/podium", false, true},
		{"https://hooks.example.com:443/podium?x=1", false, true},
		{"https://hooks.example.com:8443/podium", false, false},
		{"https://intranet/hook", false, false},
		{"https://postgres.webhooks.svc/", false, false},
		{"https://db.prod.internal/", false, false},
		{"https://printer.local./", false, false},
		{"https://router.home.arpa/", false, false},
		{"https://hooks.example.com./podium", false, true},
		{"https://2130706433/", false, false},
		{"https://0177.0.0.1/", false, false},
		{"https://0x7f.1/", false, false},
		{"https://168.63.129.16/", false, false},
		{"https://[::ffff:0:a00:1]/", false, false},
		{"https://93.184.215.14/hook", false, true},
		{"https://[2606:4700::1111]/hook", false, true},
		{"http://hooks.example.com/podium", false, false},
		{"http://hooks.example.com/podium", true, false},
		{"ftp://hooks.example.com/", false, false},
		{"hooks.example.com/podium", false, false},
		{"https:///podium", false, false},
		{"https://user@hooks.example.com/", false, false},
		{"https://10.0.0.1/", false, false},
		{"https://10.0.0.1/", true, false},
		{"https://169.254.169.254/", true, false},
		{"https://[::ffff:192.168.1.1]/", true, false},
		{"https://127.0.0.1/", false, false},
		{"https://127.0.0.1/", true, true},
		{"http://127.0.0.1:8099/", true, true},
		{"http://[::1]:8099/", true, true},
		{"http://localhost:8099/", true, true},
		{"http://LOCALHOST./", true, true},
		{"https://localhost/", false, false},
		{"https://app.localhost/", false, false},
		{"%", false, false},
	} {
		err := delivery.ValidateURL(c.url, c.allowLoopback)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, delivery.ErrInvalidURL)) {
			t.Errorf("ValidateURL(%q, loopback %v) = %v, want ok %v", c.url, c.allowLoopback, err, c.ok)
		}
	}
}

func TestAnAttemptIsTracedButSendsNoTraceContext(t *testing.T) {
	_, spans := testkit.Tracing(t)
	var header http.Header
	rcv := newReceiver(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { header = r.Header.Clone() }))
	c := rcv.client(newResolver(map[string][][]string{"receiver.example.com": {{publicAddr}}}), false)
	if res := send(c, "https://receiver.example.com/hook"); res.StatusCode != http.StatusOK {
		t.Fatal(describe(res))
	}
	if len(spans.Ended()) == 0 {
		t.Fatal("no client span for the attempt")
	}
	if tp := header.Get("traceparent"); tp != "" {
		t.Fatalf("the receiver got our trace context %q", tp)
	}
}

// FuzzValidateURL holds what ValidateURL accepts to what is safe to dial: an https URL (http
// only to loopback when allowed) with a host and no user information, whose host is not an IP
// address of a refused range.
func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{"https://hooks.example.com/x", "http://127.0.0.1:8080/", "https://[::ffff:10.0.0.1]/", "https://u@h/", "https://0x7f.1/"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, allowLoopback bool) {
		if delivery.ValidateURL(raw, allowLoopback) != nil {
			return
		}
		u, err := neturl.Parse(raw)
		if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "https" && !(allowLoopback && u.Scheme == "http")) {
			t.Fatalf("ValidateURL accepted %q", raw)
		}
		if a, err := netip.ParseAddr(u.Hostname()); err == nil {
			a = a.Unmap()
			if a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsUnspecified() || (a.IsLoopback() && !allowLoopback) {
				t.Fatalf("ValidateURL accepted %q, whose address %s is refused", raw, a)
			}
		}
	})
}
