package proxy_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
)

// owner is a real HTTP server that records what reached it.
func owner(t *testing.T, status int) (string, chan *http.Request, chan []byte) {
	reqs, bodies := make(chan *http.Request, 1), make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		reqs <- r
		bodies <- b
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Set-Cookie", "owner=internal")
		w.Header().Set("X-Internal-Debug", "secret")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, reqs, bodies
}

func gateway(t *testing.T, up *proxy.Upstream, f proxy.Forward) *fiber.App {
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1 << 20, DisableTracing: true})
	srv.App.All("/*", func(c *fiber.Ctx) error { return up.Do(c, f) })
	return srv.App
}

func TestForwardSendsOnlyWhatOwnersMaySee(t *testing.T) {
	url, reqs, bodies := owner(t, 201)
	up, err := proxy.New("catalog", url, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	app := gateway(t, up, proxy.Forward{Identity: "signed-token", ClientIP: "198.51.100.7", RequestID: "req_abc", Headers: []string{"Stripe-Signature"}})

	in := httptest.NewRequest("POST", "/external/v1/organizer/events/search?x=1", strings.NewReader(`{"limit":5}`))
	for k, v := range map[string]string{
		"Content-Type": "application/json", "Authorization": "Bearer pdm_sk_live_secret", "X-Api-Key": "k",
		"X-Publishable-Key": "p", "Cookie": "session=1", "X-Podium-Identity": "forged", "X-Podium-Client-Ip": "6.6.6.6",
		"X-Request-Id": "req_forged", "Stripe-Signature": "t=1,v1=abc", "If-None-Match": `"v0"`,
	} {
		in.Header.Set(k, v)
	}
	res, err := app.Test(in)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got := <-reqs
	if got.Method != "POST" || got.URL.RequestURI() != "/external/v1/organizer/events/search?x=1" || string(<-bodies) != `{"limit":5}` {
		t.Fatalf("forwarded %s %s", got.Method, got.URL.RequestURI())
	}
	for h, want := range map[string]string{
		"X-Podium-Identity": "signed-token", "X-Podium-Client-Ip": "198.51.100.7", "X-Request-Id": "req_abc",
		"Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc", "If-None-Match": `"v0"`,
		"Authorization": "", "X-Api-Key": "", "X-Publishable-Key": "", "Cookie": "",
	} {
		if got.Header.Get(h) != want {
			t.Errorf("owner saw %s = %q, want %q", h, got.Header.Get(h), want)
		}
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 201 || string(body) != `{"ok":true}` || res.Header.Get("ETag") != `"v1"` {
		t.Fatalf("client got %d %s etag %q", res.StatusCode, body, res.Header.Get("ETag"))
	}
	if res.Header.Get("Set-Cookie") != "" || res.Header.Get("X-Internal-Debug") != "" {
		t.Fatal("an owner header outside the allowlist reached the client")
	}
}

// TestForwardKeepsThePathAsSent: the owner routes the path the gateway routed, so an encoded
// slash inside a path parameter stays encoded.
func TestForwardKeepsThePathAsSent(t *testing.T) {
	url, reqs, _ := owner(t, 200)
	up, err := proxy.New("catalog", url, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	const path = "/external/v1/browser/events/evt_1%2Fpricing-cards"
	res, err := gateway(t, up, proxy.Forward{}).Test(httptest.NewRequest("GET", path, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if got := (<-reqs).URL.RequestURI(); got != path {
		t.Fatalf("the owner was sent %s, want %s", got, path)
	}
}

// TestOwnerDownIsUnavailable: an owner nobody listens for is a 503 in the standard format with
// Retry-After, which a client retries, not a 502.
func TestOwnerDownIsUnavailable(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	up, _ := proxy.New("registration", "http://"+addr, time.Second)
	res, err := gateway(t, up, proxy.Forward{}).Test(httptest.NewRequest("GET", "/x", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 503 || res.Header.Get("Retry-After") != proxy.RetryAfterUnavailable ||
		!strings.Contains(string(body), `"statusCode":503`) || !strings.Contains(string(body), `"error":"Service Unavailable"`) ||
		!strings.Contains(string(body), "registration is unavailable") || !strings.Contains(string(body), `"requestId":"req_`) {
		t.Fatalf("got %d (Retry-After %q) %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
}

func TestNewRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"", "catalog:8080", "ftp://h:1", "http://"} {
		if _, err := proxy.New("x", u, time.Second); err == nil {
			t.Errorf("accepted %q", u)
		}
	}
}

func TestOwnerTooSlowIsATimeoutToRetry(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	up, _ := proxy.New("checkout", srv.URL, 50*time.Millisecond)
	res, err := gateway(t, up, proxy.Forward{}).Test(httptest.NewRequest("GET", "/x", nil), 10_000)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 504 || res.Header.Get("Retry-After") != proxy.RetryAfterUnavailable || !strings.Contains(string(body), `"code":"timeout"`) {
		t.Fatalf("got %d (Retry-After %q) %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
}
