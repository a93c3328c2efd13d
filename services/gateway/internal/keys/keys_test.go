package keys_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
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
	return a.origins[origin], nil
}

var opts = keys.Options{TTL: time.Minute, NegativeTTL: time.Minute, OriginTTL: time.Minute}

func TestResolveCachesAndJudgesStatus(t *testing.T) {
	now := time.Now()
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	auth := &authDouble{keys: map[string]keys.Key{
		"active":  {ID: "key_a", Type: "secret"},
		"later":   {ID: "key_l", ExpiresAt: &future},
		"expired": {ID: "key_e", ExpiresAt: &past},
		"revoked": {ID: "key_r", RevokedAt: &past},
	}}
	s := keys.NewStore(auth, opts)
	ctx := context.Background()

	if k, err := s.Resolve(ctx, "active", now); err != nil || k.ID != "key_a" {
		t.Fatalf("active: %v %v", k, err)
	}
	if _, err := s.Resolve(ctx, "later", now); err != nil {
		t.Fatalf("key expiring later: %v", err)
	}
	if _, err := s.Resolve(ctx, "later", future); !isExpired(err) {
		t.Fatalf("at its expiry instant the key still resolved: %v", err)
	}
	if _, err := s.Resolve(ctx, "expired", now); !isExpired(err) {
		t.Fatalf("expired: %v", err)
	}
	if _, err := s.Resolve(ctx, "revoked", now); !errors.Is(err, keys.ErrRevoked) {
		t.Fatalf("revoked: %v", err)
	}
	for range 2 {
		if _, err := s.Resolve(ctx, "nope", now); !errors.Is(err, keys.ErrUnknown) {
			t.Fatalf("unknown: %v", err)
		}
	}
	calls := auth.calls.Load()
	for _, h := range []string{"active", "later", "expired", "revoked", "nope"} {
		_, _ = s.Resolve(ctx, h, now)
		if !s.Cached(h) {
			t.Errorf("%s not cached", h)
		}
	}
	if auth.calls.Load() != calls {
		t.Fatalf("cached keys were looked up again: %d more calls", auth.calls.Load()-calls)
	}
	if calls != 5 {
		t.Fatalf("%d lookups for 5 distinct hashes", calls)
	}
}

func isExpired(err error) bool {
	var e *keys.ExpiredError
	return errors.As(err, &e)
}

func TestConcurrentMissesShareOneLookup(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}, gate: make(chan struct{})}
	s := keys.NewStore(auth, opts)
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Resolve(context.Background(), "h", time.Now()); err != nil {
				t.Error(err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(auth.gate)
	wg.Wait()
	if n := auth.calls.Load(); n != 1 {
		t.Fatalf("50 concurrent misses made %d lookups, want 1", n)
	}
}

func TestRevocationEventWinsOverALookupInFlight(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}, gate: make(chan struct{})}
	s := keys.NewStore(auth, opts)
	done := make(chan error)
	go func() { _, err := s.Resolve(context.Background(), "h", time.Now()); done <- err }()
	time.Sleep(20 * time.Millisecond) // the lookup is now waiting on auth
	event := broker.Message{
		Headers: map[string]string{broker.HeaderType: keys.TypeRevoked},
		Value:   []byte(`{"keyId":"key_1","keyHash":"h","revokedAt":"2026-11-22T10:00:00Z"}`),
	}
	if err := s.HandleEvent(context.Background(), event); err != nil {
		t.Fatal(err)
	}
	close(auth.gate) // auth answers with the state from before the revocation
	<-done
	if _, err := s.Resolve(context.Background(), "h", time.Now()); !errors.Is(err, keys.ErrRevoked) {
		t.Fatalf("after the revocation event the key resolves with %v", err)
	}
}

func TestMalformedEventIsAnError(t *testing.T) {
	s := keys.NewStore(&authDouble{}, opts)
	bad := broker.Message{Headers: map[string]string{broker.HeaderType: keys.TypeRevoked}, Value: []byte(`{}`)}
	if err := s.HandleEvent(context.Background(), bad); err == nil {
		t.Fatal("a revocation without a key hash was accepted")
	}
	other := broker.Message{Headers: map[string]string{broker.HeaderType: "podium.auth.something.v9"}, Value: []byte(`x`)}
	if err := s.HandleEvent(context.Background(), other); err != nil {
		t.Fatalf("unknown event types must be ignored: %v", err)
	}
}

func TestAuthFailureIsUnavailableAndNotCached(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}, fail: errors.New("connection refused")}
	s := keys.NewStore(auth, opts)
	if _, err := s.Resolve(context.Background(), "h", time.Now()); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("got %v, want ErrUnavailable", err)
	}
	auth.fail = nil
	if _, err := s.Resolve(context.Background(), "h", time.Now()); err != nil {
		t.Fatalf("after auth recovered: %v", err)
	}
}

func TestOriginDecisionsAreCachedUntilKeysChange(t *testing.T) {
	auth := &authDouble{origins: map[string]bool{"https://a.example": true}}
	s := keys.NewStore(auth, opts)
	ctx := context.Background()
	for range 3 {
		if ok, _ := s.OriginAllowed(ctx, "https://a.example"); !ok {
			t.Fatal("allowed origin refused")
		}
		if ok, _ := s.OriginAllowed(ctx, "https://b.example"); ok {
			t.Fatal("unknown origin allowed")
		}
	}
	if n := auth.calls.Load(); n != 2 {
		t.Fatalf("%d origin lookups, want 2", n)
	}
	auth.origins["https://b.example"] = true
	_ = s.HandleEvent(ctx, broker.Message{Headers: map[string]string{broker.HeaderType: keys.TypeCreated}, Value: []byte(`{}`)})
	if ok, _ := s.OriginAllowed(ctx, "https://b.example"); !ok {
		t.Fatal("a key created for an origin did not clear the cached refusal")
	}
}
