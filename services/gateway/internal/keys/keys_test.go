package keys_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// authDouble answers lookups from a map and counts them; it stands in for the auth service's
// HTTP API (the end-to-end suite runs the real one).
type authDouble struct {
	mu      sync.Mutex
	keys    map[string]keys.Key
	origins map[string]bool
	calls   atomic.Int32
	gate    chan struct{}
	fail    error
}

func (a *authDouble) Lookup(_ context.Context, hash string) (*keys.Key, error) {
	a.calls.Add(1)
	if a.gate != nil {
		<-a.gate
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail != nil {
		return nil, a.fail
	}
	k, ok := a.keys[hash]
	if !ok {
		return nil, keys.ErrUnknown
	}
	return &k, nil
}

func (a *authDouble) OriginAllowed(_ context.Context, origin string) (bool, error) {
	a.calls.Add(1)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail != nil {
		return false, a.fail
	}
	return a.origins[origin], nil
}

// failWith makes every later lookup fail with err (nil: answer again).
func (a *authDouble) failWith(err error) {
	a.mu.Lock()
	a.fail = err
	a.mu.Unlock()
}

// t0 is the instant the store tests run at.
var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

var opts = keys.Options{TTL: time.Minute, NegativeTTL: time.Minute, OriginTTL: time.Minute}

func TestResolveCachesAndJudgesStatus(t *testing.T) {
	past, future := t0.Add(-time.Hour), t0.Add(time.Hour)
	auth := &authDouble{keys: map[string]keys.Key{
		"active":  {ID: "key_a", Type: "secret"},
		"later":   {ID: "key_l", ExpiresAt: &future},
		"expired": {ID: "key_e", ExpiresAt: &past},
		"revoked": {ID: "key_r", RevokedAt: &past},
	}}
	s := keys.NewStore(auth, opts)
	ctx := t.Context()

	if k, err := s.Resolve(ctx, "active", t0, nil); err != nil || k.ID != "key_a" {
		t.Fatalf("active: %v %v", k, err)
	}
	if _, err := s.Resolve(ctx, "later", t0, nil); err != nil {
		t.Fatalf("key expiring later: %v", err)
	}
	if _, err := s.Resolve(ctx, "expired", t0, nil); !isExpired(err) {
		t.Fatalf("expired: %v", err)
	}
	if _, err := s.Resolve(ctx, "revoked", t0, nil); !errors.Is(err, keys.ErrRevoked) {
		t.Fatalf("revoked: %v", err)
	}
	for range 2 {
		if _, err := s.Resolve(ctx, "nope", t0, nil); !errors.Is(err, keys.ErrUnknown) {
			t.Fatalf("unknown: %v", err)
		}
	}
	calls := auth.calls.Load()
	for _, h := range []string{"active", "later", "expired", "revoked", "nope"} {
		_, _ = s.Resolve(ctx, h, t0, nil)
	}
	if auth.calls.Load() != calls {
		t.Fatalf("cached keys were looked up again: %d more calls", auth.calls.Load()-calls)
	}
	if calls != 5 {
		t.Fatalf("%d lookups for 5 distinct hashes", calls)
	}
	if _, err := s.Resolve(ctx, "later", future, nil); !isExpired(err) {
		t.Fatalf("at its expiry instant the cached key still resolved: %v", err)
	}
}

func TestKeysInUseAreRefreshedBeforeTheyExpire(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}}
	s := keys.NewStore(auth, opts)
	synctest.Test(t, func(t *testing.T) {
		if _, err := s.Resolve(t.Context(), "h", t0, nil); err != nil {
			t.Fatal(err)
		}
		past := t0.Add(-time.Hour)
		auth.mu.Lock()
		auth.keys["h"] = keys.Key{ID: "key_1", RevokedAt: &past}
		auth.mu.Unlock()
		if _, err := s.Resolve(t.Context(), "h", t0.Add(opts.TTL/4), nil); err != nil {
			t.Fatalf("a fresh entry was not served from the cache: %v", err)
		}
		// Past half its lifetime the entry is still served, and refreshed in the background.
		if _, err := s.Resolve(t.Context(), "h", t0.Add(opts.TTL*3/4), nil); err != nil {
			t.Fatalf("an entry past half its lifetime was not served: %v", err)
		}
		synctest.Wait() // the background refresh is done
		if _, err := s.Resolve(t.Context(), "h", t0, nil); !errors.Is(err, keys.ErrRevoked) {
			t.Fatalf("the background refresh did not pick up the revocation: %v", err)
		}
	})
}

func isExpired(err error) bool {
	var e *keys.ExpiredError
	return errors.As(err, &e)
}

func TestMalformedEventIsPoison(t *testing.T) {
	s := keys.NewStore(&authDouble{}, opts)
	for _, bad := range []broker.Message{
		{Topic: keys.Topic, Headers: map[string]string{broker.HeaderType: keys.TypeRevoked}, Value: []byte(`{}`)},
		{Topic: keys.Topic, Headers: map[string]string{broker.HeaderType: keys.TypeRevoked}, Value: []byte(`{"keyHash":`)},
		{Topic: keys.Topic, Headers: map[string]string{broker.HeaderType: "podium.auth.key.revoked.v2"}, Value: []byte(`{"keyHash":"h"}`)},
	} {
		if err := s.HandleEvent(t.Context(), bad); !broker.IsPoison(err) {
			t.Fatalf("revocation %s %s: %v, want poison", bad.Headers[broker.HeaderType], bad.Value, err)
		}
	}
	other := broker.Message{Topic: keys.Topic, Headers: map[string]string{broker.HeaderType: "podium.auth.something.v9"}, Value: []byte(`x`)}
	if err := s.HandleEvent(t.Context(), other); err != nil {
		t.Fatalf("unknown event types must be ignored: %v", err)
	}
}

func TestAuthFailureIsUnavailableAndNotCached(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}, fail: errors.New("connection refused")}
	s := keys.NewStore(auth, opts)
	if _, err := s.Resolve(t.Context(), "h", t0, nil); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("got %v, want ErrUnavailable", err)
	}
	auth.failWith(nil)
	if _, err := s.Resolve(t.Context(), "h", t0, nil); err != nil {
		t.Fatalf("after auth recovered: %v", err)
	}
}

func TestOriginDecisionsAreCachedUntilKeysChange(t *testing.T) {
	auth := &authDouble{origins: map[string]bool{"https://a.example": true}}
	s := keys.NewStore(auth, opts)
	ctx := t.Context()
	for range 3 {
		if ok, _ := s.OriginAllowed(ctx, "https://a.example", t0, nil); !ok {
			t.Fatal("allowed origin refused")
		}
		if ok, _ := s.OriginAllowed(ctx, "https://b.example", t0, nil); ok {
			t.Fatal("unknown origin allowed")
		}
	}
	if n := auth.calls.Load(); n != 2 {
		t.Fatalf("%d origin lookups, want 2", n)
	}
	auth.mu.Lock()
	auth.origins["https://b.example"] = true
	auth.mu.Unlock()
	_ = s.HandleEvent(ctx, broker.Message{Topic: keys.Topic, Headers: map[string]string{broker.HeaderType: keys.TypeCreated}, Value: []byte(`{}`)})
	if ok, _ := s.OriginAllowed(ctx, "https://b.example", t0, nil); !ok {
		t.Fatal("a key created for an origin did not clear the cached refusal")
	}
}
