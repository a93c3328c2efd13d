package keys_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// The stores of these tests are made outside their synctest bubbles: their caches run tickers
// of their own that never stop. Everything the callers block on is made inside, and the cache
// entries made inside are read inside only (their lifetimes are on the bubble's clock).

// TestConcurrentMissesShareOneLookupAndOneAdmission: concurrent misses of one hash share one
// lookup in auth, charged to the caller that started it.
func TestConcurrentMissesShareOneLookupAndOneAdmission(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}}
	s := keys.NewStore(auth, opts)
	synctest.Test(t, func(t *testing.T) {
		auth.gate = make(chan struct{})
		var admitted atomic.Int32
		admit := func() error { admitted.Add(1); return nil }
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				if _, err := s.Resolve(t.Context(), "h", t0, admit); err != nil {
					t.Error(err)
				}
			})
		}
		synctest.Wait() // one caller waits on auth, the others on its lookup
		close(auth.gate)
		wg.Wait()
		if n := admitted.Load(); n != 1 {
			t.Fatalf("20 concurrent misses were charged %d admissions, want 1", n)
		}
		if n := auth.calls.Load(); n != 1 {
			t.Fatalf("20 concurrent misses made %d lookups, want 1", n)
		}
		refused := errors.New("lookup limit")
		if _, err := s.Resolve(t.Context(), "other", t0, func() error { return refused }); !errors.Is(err, refused) {
			t.Fatalf("a refused admission gave %v", err)
		}
		if _, err := s.Resolve(t.Context(), "h", t0, func() error { return refused }); err != nil {
			t.Fatalf("a cached key needed admission: %v", err)
		}
	})
}

// TestARefusedAdmissionIsNotSharedWithConcurrentCallers: a caller whose admission is refused
// while another caller of the same key or origin arrives keeps its refusal to itself: the
// other, admitted, gets auth's answer, not the refused caller's 429 (nor the 503 a refusal of
// a refused request's origin check would become).
func TestARefusedAdmissionIsNotSharedWithConcurrentCallers(t *testing.T) {
	const origin = "https://a.example"
	for name, lookup := range map[string]func(context.Context, *keys.Store, func() error) error{
		"key": func(ctx context.Context, s *keys.Store, admit func() error) error {
			_, err := s.Resolve(ctx, "h", t0, admit)
			return err
		},
		"origin": func(ctx context.Context, s *keys.Store, admit func() error) error {
			ok, err := s.OriginAllowed(ctx, origin, t0, admit)
			if err == nil && !ok {
				return errors.New("the allowed origin was refused")
			}
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}, origins: map[string]bool{origin: true}}
			s := keys.NewStore(auth, opts)
			synctest.Test(t, func(t *testing.T) {
				refused := errors.New("the attacker's lookup limit")
				release := make(chan struct{})
				attacker, honest := make(chan error, 1), make(chan error, 1)
				go func() { attacker <- lookup(t.Context(), s, func() error { <-release; return refused }) }()
				synctest.Wait() // the attacker's admission is being decided
				go func() { honest <- lookup(t.Context(), s, func() error { return nil }) }()
				synctest.Wait() // the honest caller has its answer, or waits on a lookup
				close(release)
				if err := <-attacker; !errors.Is(err, refused) {
					t.Fatalf("the refused caller got %v", err)
				}
				if err := <-honest; err != nil {
					t.Fatalf("an admitted caller arriving during another's refused admission got %v", err)
				}
			})
		})
	}
}

// TestRevocationEventWinsOverALookupInFlight: a revocation pushed while a lookup of the key
// waits on auth is not undone when auth answers with the key as it was.
func TestRevocationEventWinsOverALookupInFlight(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"h": {ID: "key_1"}}}
	s := keys.NewStore(auth, opts)
	synctest.Test(t, func(t *testing.T) {
		auth.gate = make(chan struct{})
		done := make(chan error)
		go func() { _, err := s.Resolve(t.Context(), "h", t0, nil); done <- err }()
		synctest.Wait() // the lookup is now waiting on auth
		event := broker.Message{
			Topic:   keys.Topic,
			Headers: map[string]string{broker.HeaderType: keys.TypeRevoked},
			Value:   []byte(`{"keyId":"key_1","keyHash":"h","revokedAt":"2026-11-22T10:00:00Z"}`),
		}
		if err := s.HandleEvent(t.Context(), event); err != nil {
			t.Fatal(err)
		}
		close(auth.gate) // auth answers with the state from before the revocation
		if err := <-done; err != nil {
			t.Fatalf("the lookup that raced the revocation failed: %v", err)
		}
		if _, err := s.Resolve(t.Context(), "h", t0, nil); !errors.Is(err, keys.ErrRevoked) {
			t.Fatalf("after the revocation event the key resolves with %v", err)
		}
	})
}
