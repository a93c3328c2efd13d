package identity_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestMiddlewareGuardsRoutes(t *testing.T) {
	gatewaySK, gatewayPub := keyPair(t)
	checkoutSK, checkoutPub := keyPair(t)
	gateway := identity.NewSigner(identity.Gateway, gatewaySK, time.Minute)
	checkout := identity.NewSigner(identity.Checkout, checkoutSK, time.Minute)
	v := identity.NewVerifier(identity.Registration, trust(t, "gateway:"+gatewayPub, "checkout:"+checkoutPub), time.Minute)
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1024, DisableTracing: true})
	srv.App.Get("/organizer", identity.Middleware(v, identity.Callers(identity.Gateway)), identity.RequireType(identity.Secret),
		identity.RequireScope("events:read"), func(c *fiber.Ctx) error {
			return c.SendString(identity.Caller(c) + " " + identity.From(c).OrganizerID + " " + identity.ClientIP(c))
		})
	srv.App.Get("/internal", identity.Middleware(v, identity.Callers(identity.Checkout)), identity.RequireOrganizer,
		func(c *fiber.Ctx) error { return c.SendString(identity.Caller(c) + " " + identity.From(c).OrganizerID) })

	pub := alice
	pub.KeyType, pub.Scopes = identity.Publishable, nil
	noScope := alice
	noScope.Scopes = []string{"pricing:read"}
	tok := func(s *identity.Signer, p identity.Principal) string {
		tok, _ := s.Token(identity.Registration, p)
		return tok
	}

	cases := []struct {
		name, path, token string
		status            int
		body              string
	}{
		{"no token", "/organizer", "", 401, "this service is reached through the gateway only"},
		{"bad token", "/organizer", "x.y.z", 401, "the internal identity token is invalid or expired"},
		{"publishable on an organizer route", "/organizer", tok(gateway, pub), 403, "this route does not accept publishable credentials"},
		{"missing scope", "/organizer", tok(gateway, noScope), 403, "the API key lacks the events:read scope"},
		{"checkout on a gateway route", "/organizer", tok(checkout, alice), 403, "this route does not accept calls from checkout"},
		{"valid", "/organizer", tok(gateway, alice), 200, "gateway org_1 203.0.113.9"},
		{"gateway on a checkout route", "/internal", tok(gateway, alice), 403, "this route does not accept calls from gateway"},
		{"no organizer", "/internal", tok(checkout, identity.Principal{KeyID: "k", KeyType: identity.Service}), 403, "this route needs an identity that names an organizer"},
		{"checkout with an organizer", "/internal", tok(checkout, alice), 200, "checkout org_1"},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("GET", tc.path, nil)
		if tc.token != "" {
			req.Header.Set(identity.Header, tc.token)
		}
		req.Header.Set(identity.HeaderClientIP, "203.0.113.9")
		res, err := srv.App.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := string(raw)
		if res.StatusCode >= 400 {
			var b httpserver.Body
			_ = json.Unmarshal(raw, &b)
			body, _ = b.Message.(string)
		}
		if res.StatusCode != tc.status || body != tc.body {
			t.Errorf("%s: %d %q, want %d %q", tc.name, res.StatusCode, body, tc.status, tc.body)
		}
	}
}

// Fiber hands handlers views of buffers that later requests reuse: a verified token remembered
// by such a view would later read as another request's token and answer with this principal.
func TestMiddlewareKeepsPrincipalsApartOnOneConnection(t *testing.T) {
	s, v := gatewayToCatalog(t)
	srv := httpserver.New(httpserver.Options{Log: testkit.Discard(), BodyLimit: 1024, DisableTracing: true})
	srv.App.Use(identity.Middleware(v, identity.Callers(identity.Gateway)))
	srv.App.Get("/who", func(c *fiber.Ctx) error { return c.SendString(identity.From(c).OrganizerID) })
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App.Listener(ln) }()
	t.Cleanup(func() { _ = srv.App.Shutdown() })

	bob := alice
	bob.OrganizerID, bob.KeyID = "org_2", "key_2" // same lengths, so the tokens are too
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	for i := range 6 {
		p := []identity.Principal{alice, bob}[i%2]
		tok, _ := s.Token(identity.Catalog, p)
		req, _ := http.NewRequestWithContext(t.Context(), "GET", "http://"+ln.Addr().String()+"/who", nil)
		req.Header.Set(identity.Header, tok)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(got) != p.OrganizerID {
			t.Fatalf("request %d with %s's token was answered as %q", i, p.OrganizerID, got)
		}
	}
}
