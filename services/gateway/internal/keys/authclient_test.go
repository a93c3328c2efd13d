package keys_test

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/identity/identitytest"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// TestAuthClientClassifiesAuthsAnswers: the gateway signs its lookups as itself for auth; a
// 404 is an unknown key, a 5xx or an auth out of reach is ErrUnreachable (which lets known
// keys be served stale), and any other refusal is an error that is neither.
func TestAuthClientClassifiesAuthsAnswers(t *testing.T) {
	issuers := identitytest.New(t)
	status := map[string]int{"known": http.StatusOK, "unknown": http.StatusNotFound, "down": http.StatusServiceUnavailable, "refused": http.StatusUnauthorized}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := issuers.Verifier(identity.Auth).Verify(r.Header.Get(identity.Header))
		if err != nil || p.Issuer != identity.Gateway || p.KeyID != "gateway" || p.KeyType != identity.Service {
			http.Error(w, `{"statusCode":401,"message":"bad token"}`, http.StatusUnauthorized)
			return
		}
		var body struct{ KeyHash string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.WriteHeader(status[body.KeyHash])
		_, _ = w.Write([]byte(`{"id":"key_1","organizerId":"org_1","type":"secret","scopes":["events:read"],"allowedOrigins":[],"expiresAt":null,"revokedAt":null}`))
	}))
	t.Cleanup(srv.Close)
	c := keys.NewAuthClient(srv.URL, issuers.Signer(identity.Gateway), 5*time.Second)

	if k, err := c.Lookup(t.Context(), "known"); err != nil || k.ID != "key_1" || k.OrganizerID != "org_1" {
		t.Fatalf("known key: %+v %v", k, err)
	}
	if _, err := c.Lookup(t.Context(), "unknown"); !errors.Is(err, keys.ErrUnknown) || errors.Is(err, keys.ErrUnreachable) {
		t.Fatalf("auth's 404: %v, want ErrUnknown", err)
	}
	if _, err := c.Lookup(t.Context(), "down"); !errors.Is(err, keys.ErrUnreachable) {
		t.Fatalf("auth's 503: %v, want ErrUnreachable", err)
	}
	if _, err := c.Lookup(t.Context(), "refused"); err == nil || errors.Is(err, keys.ErrUnknown) || errors.Is(err, keys.ErrUnreachable) {
		t.Fatalf("auth's 401: %v, want an error that is neither unknown nor unreachable", err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	gone := keys.NewAuthClient("http://"+addr, issuers.Signer(identity.Gateway), 5*time.Second)
	if _, err := gone.OriginAllowed(t.Context(), "https://shop.example"); !errors.Is(err, keys.ErrUnreachable) {
		t.Fatalf("auth out of reach: %v, want ErrUnreachable", err)
	}
}

// TestAuthClientReadsTheKeysMode: the mode auth stored for a key is read when auth sends it,
// and left empty (matching any prefix) when it does not.
func TestAuthClientReadsTheKeysMode(t *testing.T) {
	issuers := identitytest.New(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ KeyHash string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		mode := map[string]string{"test": `,"mode":"test"`, "live": `,"mode":"live"`}[body.KeyHash]
		_, _ = w.Write([]byte(`{"id":"key_1","organizerId":"org_1","type":"secret","scopes":[]` + mode + `}`))
	}))
	t.Cleanup(srv.Close)
	c := keys.NewAuthClient(srv.URL, issuers.Signer(identity.Gateway), 5*time.Second)
	for hash, want := range map[string]apikey.Mode{"test": apikey.Test, "live": apikey.Live, "older": ""} {
		if k, err := c.Lookup(t.Context(), hash); err != nil || k.Mode != want || k.ID != "key_1" {
			t.Fatalf("%s: %+v %v, want mode %q", hash, k, err, want)
		}
	}
}
