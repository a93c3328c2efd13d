package keys_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// errUnreachable is how the auth client (libs/peer) reports a refused connection.
var errUnreachable = fault.NewUnavailable("auth", errors.New("POST /internal/keys/verify: connection refused"))

// logBuffer collects log lines safely across goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

var staleOpts = keys.Options{TTL: time.Minute, StaleTTL: 10 * time.Minute, NegativeTTL: time.Minute, OriginTTL: time.Minute}

// TestKnownKeysAreServedWhileAuthIsUnreachable: past its cache lifetime, a key this store
// looked up before is served for up to the stale lifetime more while auth cannot be reached;
// expiry and pushed revocations still refuse it, a key never seen needs auth, and a failure
// that is an answer of auth (not a 5xx) serves nothing stale.
func TestKnownKeysAreServedWhileAuthIsUnreachable(t *testing.T) {
	expires := t0.Add(90 * time.Second) // after the cache lifetime, before the request below
	auth := &authDouble{keys: map[string]keys.Key{
		"known": {ID: "key_k"}, "expiring": {ID: "key_e", ExpiresAt: &expires}, "revoked": {ID: "key_r"},
	}}
	s := keys.NewStore(auth, staleOpts)
	ctx := t.Context()
	for _, h := range []string{"known", "expiring", "revoked"} {
		if _, err := s.Resolve(ctx, h, t0, nil); err != nil {
			t.Fatalf("%s: %v", h, err)
		}
	}
	s.Revoke("revoked", t0)
	auth.failWith(errUnreachable)

	late := t0.Add(staleOpts.TTL + time.Minute)
	if k, err := s.Resolve(ctx, "known", late, nil); err != nil || k.ID != "key_k" {
		t.Fatalf("a known key past its lifetime with auth unreachable: %v %v", k, err)
	}
	if _, err := s.Resolve(ctx, "expiring", late, nil); !isExpired(err) {
		t.Fatalf("an expired key served stale: %v", err)
	}
	if _, err := s.Resolve(ctx, "revoked", late, nil); !errors.Is(err, keys.ErrRevoked) {
		t.Fatalf("a revoked key served stale: %v", err)
	}
	if _, err := s.Resolve(ctx, "never-seen", late, nil); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("a key never seen: %v, want ErrUnavailable", err)
	}
	if _, err := s.Resolve(ctx, "known", t0.Add(staleOpts.TTL+staleOpts.StaleTTL+time.Second), nil); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("a key past its stale lifetime: %v, want ErrUnavailable", err)
	}

	answered := keys.NewStore(auth, staleOpts)
	auth.failWith(nil)
	if _, err := answered.Resolve(ctx, "known", t0, nil); err != nil {
		t.Fatal(err)
	}
	auth.failWith(errors.New("auth /internal/keys/verify: status 401"))
	if _, err := answered.Resolve(ctx, "known", late, nil); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("a key served stale after auth answered 401: %v", err)
	}
}

// TestAnOutageIsProbedNotWaitedFor: once auth was found unreachable, known keys are served
// without asking it on every request; one lookup per probe interval checks whether it is back,
// and the outage is logged once, however many requests it lasts.
func TestAnOutageIsProbedNotWaitedFor(t *testing.T) {
	auth := &authDouble{keys: map[string]keys.Key{"known": {ID: "key_k"}}}
	logs := &logBuffer{}
	opts := staleOpts
	opts.Log = slog.New(slog.NewJSONHandler(logs, nil))
	s := keys.NewStore(auth, opts)
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		if _, err := s.Resolve(ctx, "known", t0, nil); err != nil {
			t.Fatal(err)
		}
		auth.failWith(errUnreachable)
		late := t0.Add(opts.TTL + time.Second)
		before := auth.calls.Load()
		for i := range 100 { // within one probe interval
			if _, err := s.Resolve(ctx, "known", late.Add(time.Duration(i)*time.Millisecond), nil); err != nil {
				t.Fatalf("request %d during the outage: %v", i, err)
			}
		}
		if n := auth.calls.Load() - before; n != 1 {
			t.Fatalf("100 requests within a second of an outage asked auth %d times, want once", n)
		}
		probe := late.Add(2 * time.Second)
		if _, err := s.Resolve(ctx, "known", probe, nil); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the background probe is done
		if n := auth.calls.Load() - before; n != 2 {
			t.Fatalf("%d lookups after the probe interval, want one background probe more", n)
		}
		if n := logs.count("auth unreachable"); n != 1 {
			t.Fatalf("%d warnings about the outage, want 1", n)
		}

		auth.failWith(nil)
		_, _ = s.Resolve(ctx, "known", probe.Add(time.Hour), nil) // far past its lifetimes: needs auth
		if n := logs.count("auth reachable again"); n != 1 {
			t.Fatalf("%d notes that auth is reachable again, want 1", n)
		}
		auth.failWith(errUnreachable)
		if _, err := s.Resolve(ctx, "known", probe.Add(time.Hour+opts.TTL+time.Second), nil); err != nil {
			t.Fatalf("a key looked up after the first outage, in a second one: %v", err)
		}
		if n := logs.count("auth unreachable"); n != 2 {
			t.Fatalf("%d warnings after two outages, want 2", n)
		}
	})
}

// TestRefusedOriginsNeverEvictAllowedOnes: made-up origins, all refused, fill a cache of their
// own, so the allowed origin preflights rely on stays decided; while auth is unreachable it
// is still allowed past its lifetime.
func TestRefusedOriginsNeverEvictAllowedOnes(t *testing.T) {
	auth := &authDouble{origins: map[string]bool{"https://shop.example": true}}
	s := keys.NewStore(auth, staleOpts)
	ctx := t.Context()
	now := t0
	if ok, err := s.OriginAllowed(ctx, "https://shop.example", now, nil); !ok || err != nil {
		t.Fatalf("allowed origin: %v %v", ok, err)
	}
	for i := range 10_001 { // more than the cache holds
		if ok, _ := s.OriginAllowed(ctx, "https://made-up-"+strconv.Itoa(i)+".example", now, nil); ok {
			t.Fatal("a made-up origin was allowed")
		}
	}
	before := auth.calls.Load()
	if ok, _ := s.OriginAllowed(ctx, "https://shop.example", now, nil); !ok || auth.calls.Load() != before {
		t.Fatalf("after the made-up origins the allowed one was looked up again (%d lookups)", auth.calls.Load()-before)
	}
	auth.failWith(errUnreachable)
	if ok, err := s.OriginAllowed(ctx, "https://shop.example", now.Add(staleOpts.OriginTTL+time.Minute), nil); !ok || err != nil {
		t.Fatalf("the allowed origin with auth unreachable: %v %v", ok, err)
	}
	if _, err := s.OriginAllowed(ctx, "https://never-seen.example", now, nil); !errors.Is(err, keys.ErrUnavailable) {
		t.Fatalf("an origin never decided with auth unreachable: %v", err)
	}
}
