package peer_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/httpserver"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/libs/peer"
)

// answer is what the test peer answers a path with.
type answer struct {
	status int
	body   string
	header map[string]string
}

var answers = map[string]answer{
	"/ok":        {200, `{"id":"evt_1"}`, nil},
	"/missing":   {404, `{"statusCode":404,"message":"event evt_9 not found"}`, nil},
	"/sold-out":  {409, `{"statusCode":409,"message":"category cat_1 is sold out","code":"quota_exhausted"}`, nil},
	"/rules":     {422, `{"statusCode":422,"message":["athletes[0].birthDate: too young","tShirt: unknown size"]}`, nil},
	"/slow-down": {429, `{"statusCode":429,"message":"too many holds"}`, map[string]string{"Retry-After": "30"}},
	"/down":      {503, `{"statusCode":503,"message":"database unavailable"}`, map[string]string{"Retry-After": "5"}},
	"/bad":       {400, `{"statusCode":400,"message":"categoryId: is required"}`, nil},
	"/forbidden": {403, `not json`, nil},
	"/garbled":   {200, `{"id":`, nil},
	"/no-route":  {404, `{"statusCode":404,"code":"route_not_found","message":"no route for this method and path"}`, nil},
}

// seen is what the test peer received.
type seen struct {
	token, bearer, requestID, contentType string
	body                                  map[string]any
}

func startPeer(t *testing.T) (string, chan seen) {
	t.Helper()
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := seen{token: r.Header.Get(identity.Header), bearer: r.Header.Get("Authorization"),
			requestID: r.Header.Get(httpserver.HeaderRequestID), contentType: r.Header.Get("Content-Type")}
		_ = json.NewDecoder(r.Body).Decode(&s.body)
		select {
		case got <- s:
		default:
		}
		a := answers[r.URL.Path]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(a.body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, got
}

var buyer = identity.Principal{OrganizerID: "org_1", KeyID: "key_1", KeyType: identity.Publishable,
	Scopes: []string{"events:read"}, Origin: "https://shop.example", Test: true}

func TestACallCarriesItsTokenRequestIDAndBody(t *testing.T) {
	base, got := startPeer(t)
	iss := identitytest.New(t)
	c := peer.New(peer.Options{Name: identity.Catalog, BaseURL: base + "/", Timeout: 5 * time.Second, Signer: iss.Signer(identity.Registration)})
	ctx := httpserver.WithRequestID(t.Context(), "req_abc")
	var out struct{ ID string }
	if err := c.Do(ctx, buyer, http.MethodPost, "/ok", map[string]int{"places": 2}, &out); err != nil {
		t.Fatal(err)
	}
	if out.ID != "evt_1" {
		t.Fatalf("decoded %+v", out)
	}
	s := <-got
	if s.requestID != "req_abc" || s.contentType != "application/json" || s.body["places"] != float64(2) {
		t.Fatalf("peer saw %+v", s)
	}
	v, err := iss.Verifier(identity.Catalog).Verify(s.token)
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	want := identity.Principal{OrganizerID: "org_1", KeyID: "key_1", KeyType: identity.Publishable, Test: true}
	if v.Issuer != identity.Registration || v.OrganizerID != want.OrganizerID || v.KeyID != want.KeyID ||
		v.KeyType != want.KeyType || v.Test != want.Test || v.Scopes != nil || v.Origin != "" {
		t.Fatalf("token names %+v, want only who calls: %+v", v, want)
	}
}

func TestABearerClientSendsItsToken(t *testing.T) {
	base, got := startPeer(t)
	c := peer.New(peer.Options{Name: "auth admin API", BaseURL: base, Bearer: "op_secret"})
	if err := c.Do(t.Context(), identity.Principal{}, http.MethodGet, "/ok", nil, nil); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s.bearer != "Bearer op_secret" || s.token != "" || s.requestID != "" || s.contentType != "" {
		t.Fatalf("peer saw %+v", s)
	}
}

func TestRefusalsKeepTheirCategory(t *testing.T) {
	base, _ := startPeer(t)
	c := peer.New(peer.Options{Name: "registration", BaseURL: base, Bearer: "x"})
	cases := []struct {
		path       string
		kind       fault.Kind
		problems   []string
		code       string
		retryAfter time.Duration
	}{
		{"/missing", fault.NotFound, []string{"event evt_9 not found"}, "", 0},
		{"/sold-out", fault.Conflict, []string{"category cat_1 is sold out"}, "quota_exhausted", 0},
		{"/rules", fault.Unprocessable, []string{"athletes[0].birthDate: too young", "tShirt: unknown size"}, "", 0},
		{"/slow-down", fault.TooManyRequests, []string{"too many holds"}, "", 30 * time.Second},
		{"/down", fault.Unavailable, []string{"the registration service is unavailable; retry after the Retry-After seconds"}, "", 5 * time.Second},
		{"/garbled", fault.Unavailable, []string{"the registration service is unavailable; retry after the Retry-After seconds"}, "", 0},
		// The peer's contract refuses what this service sent: our bug, never "retry".
		{"/bad", fault.Internal, nil, "", 0},
		{"/forbidden", fault.Internal, nil, "", 0},
		{"/no-route", fault.Internal, nil, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			var out struct{ ID string }
			err := c.Do(t.Context(), identity.Principal{}, http.MethodGet, tc.path, nil, &out)
			f, ok := fault.Of(err)
			if !ok {
				t.Fatalf("err %v is no fault", err)
			}
			if f.Kind != tc.kind || f.Code != tc.code || f.RetryAfter != tc.retryAfter || !slices.Equal(f.Problems, tc.problems) {
				t.Fatalf("got %v %q code %q retry %v; want %v %q code %q retry %v",
					f.Kind, f.Problems, f.Code, f.RetryAfter, tc.kind, tc.problems, tc.code, tc.retryAfter)
			}
		})
	}
}

func TestAPeerOutOfReachIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := peer.New(peer.Options{Name: "catalog", BaseURL: "http://" + addr, Bearer: "x"})
	err = c.Do(t.Context(), identity.Principal{}, http.MethodGet, "/ok", nil, nil)
	if !errors.Is(err, fault.ErrUnavailable) {
		t.Fatalf("err %v, want unavailable", err)
	}
	var op *net.OpError
	if !errors.As(err, &op) {
		t.Fatalf("err %v lost its cause", err)
	}
}

func TestACancelledCallIsTheCallersContext(t *testing.T) {
	base, _ := startPeer(t)
	c := peer.New(peer.Options{Name: "catalog", BaseURL: base, Bearer: "x"})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := c.Do(ctx, identity.Principal{}, http.MethodGet, "/ok", nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the context's cancellation", err)
	}
}
