package edge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/httpserver/clientip"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
	"github.com/podiumhq/podium/services/gateway/internal/proxy"
	"github.com/podiumhq/podium/services/gateway/internal/ratelimit"
)

// harness is a gateway with every route, over a real Redis limiter, an owner on a real listener
// that records what reaches it, and an auth double that counts its lookups (the end-to-end
// suite runs the real auth service).
type harness struct {
	srv   *httpserver.Server
	gw    *Gateway
	auth  *authDouble
	owner *owner
	// key is an active publishable key allowing site; secret an active secret key with every
	// scope of the document, of the same organizer.
	key, secret string
}

// ownerNames are the services the gateway routes to.
var ownerNames = []string{Catalog, Registration, Checkout, Webhooks}

// verifyAny verifies a gateway token sent to any of the owners (the harness's one owner
// stands in for all of them) and returns the owner it was addressed to.
func verifyAny(issuers *identitytest.Issuers, tok string) (identity.Principal, string, error) {
	var err error
	for _, owner := range ownerNames {
		var v identity.Verified
		if v, err = issuers.Verifier(owner).Verify(tok); err == nil && v.Issuer == identity.Gateway {
			return v.Principal, owner, nil
		}
	}
	return identity.Principal{}, "", err
}

// site is the origin the harness's publishable key allows.
const site = "https://shop.example"

func newHarness(t testing.TB, limits Limits) *harness {
	t.Helper()
	rdb, _ := testkit.Redis(t)
	issuers := identitytest.New(t)
	o := startOwner(t, issuers)
	upstreams := map[string]*proxy.Upstream{}
	for _, name := range ownerNames {
		u, err := proxy.New(name, o.url, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		upstreams[name] = u
	}
	key, err := apikey.Generate(apikey.Publishable, apikey.Live)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := apikey.Generate(apikey.Secret, apikey.Live)
	if err != nil {
		t.Fatal(err)
	}
	org := "org_" + randomHex(6)
	auth := &authDouble{
		keys: map[string]keys.Key{
			apikey.Hash(key):    {ID: "key_" + randomHex(6), OrganizerID: org, Type: apikey.Publishable, AllowedOrigins: []string{site}},
			apikey.Hash(secret): {ID: "key_" + randomHex(6), OrganizerID: org, Type: apikey.Secret, Scopes: allScopes()},
		},
		origins: map[string]bool{site: true},
	}
	resolver, _ := clientip.New([]string{"0.0.0.0/32"}) // Fiber's test connections come from 0.0.0.0
	validator, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{
		Keys:    keys.NewStore(auth, keys.Options{TTL: time.Minute, NegativeTTL: time.Minute, OriginTTL: time.Minute}),
		Limiter: ratelimit.New(rdb, testkit.Logger(t), 1), Limits: limits,
		Signer: issuers.Signer(identity.Gateway), Validator: validator, ClientIP: resolver,
		Upstreams: upstreams, Edge: edgecache.New(100, 1<<20, time.Minute, time.Now), Log: testkit.Logger(t), Now: time.Now,
	}
	srv := httpserver.New(httpserver.Options{Log: testkit.Logger(t), BodyLimit: BodyLimit(), DisableTracing: true})
	if err := g.Register(srv.App); err != nil {
		t.Fatal(err)
	}
	return &harness{srv: srv, gw: g, auth: auth, owner: o, key: key, secret: secret}
}

// allScopes are the scopes of every organizer operation of the document.
func allScopes() []string {
	var scopes []string
	for _, op := range apispec.Operations() {
		if op.Scope != "" && !slices.Contains(scopes, op.Scope) {
			scopes = append(scopes, op.Scope)
		}
	}
	return scopes
}

// call is one request to the harness's gateway from the client at addr.
type call struct {
	method, path, addr, body string
	headers                  map[string]string
}

// answer is a response read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends c (path relative to BasePath) and returns the answer.
func (h *harness) do(t *testing.T, c call) answer {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequestWithContext(t.Context(), c.method, "http://gateway"+BasePath+c.path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-For", c.addr) // the harness trusts its test connections as a proxy
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	return h.send(t, req)
}

// send sends req to the gateway and reads the answer.
func (h *harness) send(t *testing.T, req *http.Request) answer {
	t.Helper()
	res, err := h.srv.App.Test(req, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode >= http.StatusBadRequest {
		// Every refusal is the standard error body, with a code the document lists.
		if err := h.gw.Validator.ValidateError(res.StatusCode, body); err != nil {
			t.Errorf("%s %s answered %d with an error body the document does not describe (%v): %s", req.Method, req.URL.Path, res.StatusCode, err, body)
		}
	}
	return answer{status: res.StatusCode, header: res.Header, body: body}
}

// browserHeaders are a page's headers on the harness's site with its key.
func (h *harness) browserHeaders(origin string) map[string]string {
	return map[string]string{"X-Publishable-Key": h.key, "Origin": origin}
}

// authDouble answers lookups from maps and counts them.
type authDouble struct {
	mu            sync.Mutex
	keys          map[string]keys.Key
	origins       map[string]bool
	lookups       atomic.Int32
	originLookups atomic.Int32
}

func (a *authDouble) Lookup(_ context.Context, hash string) (*keys.Key, error) {
	a.lookups.Add(1)
	a.mu.Lock()
	defer a.mu.Unlock()
	k, ok := a.keys[hash]
	if !ok {
		return nil, keys.ErrUnknown
	}
	return &k, nil
}

func (a *authDouble) OriginAllowed(_ context.Context, origin string) (bool, error) {
	a.originLookups.Add(1)
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.origins[origin], nil
}

// owner stands for every owner: it records each request's raw path, query, principal and the
// owner its identity token is addressed to, and answers with the path, shareable at the edge
// for a minute.
type owner struct {
	url      string
	mu       sync.Mutex
	received []received
	// held receives each request for an event named evt_held once it arrived, and answers
	// it when the test closes release.
	held    chan struct{}
	release chan struct{}
}

type received struct {
	path, query string
	principal   identity.Principal
	// audience is the owner the request's identity token is addressed to.
	audience string
	// idempotencyKey is the Idempotency-Key header the owner received.
	idempotencyKey string
}

func startOwner(t testing.TB, issuers *identitytest.Issuers) *owner {
	t.Helper()
	o := &owner{held: make(chan struct{}, 16), release: make(chan struct{})}
	srv := httpserver.New(httpserver.Options{Log: testkit.Logger(t), BodyLimit: 4 << 20, DisableTracing: true})
	srv.App.Use(func(c *fiber.Ctx) error {
		if strings.HasSuffix(string(c.Request().URI().PathOriginal()), "/evt_held") {
			o.held <- struct{}{}
			<-o.release
		}
		p, audience, err := verifyAny(issuers, c.Get(identity.Header))
		if err != nil {
			return httpserver.Unauthorized(httpserver.CodeUnauthorized, "no identity")
		}
		r := received{path: string(c.Request().URI().PathOriginal()), query: string(c.Request().URI().QueryString()),
			principal: p, audience: audience, idempotencyKey: strings.Clone(c.Get("Idempotency-Key"))}
		o.mu.Lock()
		o.received = append(o.received, r)
		o.mu.Unlock()
		c.Set(edgecache.HeaderSurrogateControl, "max-age=60")
		return c.Status(http.StatusOK).JSON(fiber.Map{"path": r.path, "test": p.Test})
	})
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.url = "http://" + ln.Addr().String()
	testkit.Background(t, func(ctx context.Context) error { return srv.Serve(ctx, ln, time.Second) })
	return o
}

// requests returns what reached the owner so far.
func (o *owner) requests() []received {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]received(nil), o.received...)
}

// newAddr is a client address of the test's own, so that tests sharing Redis do not share
// per-address buckets.
func newAddr() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return fmt.Sprintf("10.%d.%d.%d", b[0], b[1], b[2])
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
