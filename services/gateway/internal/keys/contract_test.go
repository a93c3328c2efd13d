package keys_test

import (
	"errors"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	authevents "github.com/podiumhq/podium/services/auth/events"
	"github.com/podiumhq/podium/services/gateway/internal/keys"
)

// TestAuthsPublishedKeyEventsAreApplied: the examples auth publishes with its schemas take
// effect here: the revoked key's hash is refused (another key still resolves) and a created
// key drops cached refusals of origins. The next version of either is poison.
func TestAuthsPublishedKeyEventsAreApplied(t *testing.T) {
	const revokedHash = "9f2c4e1ab37d58c6e0f14b2a6d93c7e5081fa4b6c2d9e3f7a1b5c8d0e4f62a93" // auth's example
	const origin = "https://crossfit-open.example.com"                                     // allowed by auth's example key
	auth := &authDouble{
		keys:    map[string]keys.Key{revokedHash: {ID: "key_4Qm8ZrT2vXc9LpWn3Hs7"}, "other": {ID: "key_other"}},
		origins: map[string]bool{},
	}
	s := keys.NewStore(auth, opts)
	contracts := brokertest.LoadContracts(t, authevents.Files)
	ctx := t.Context()

	for _, hash := range []string{revokedHash, "other"} {
		if _, err := s.Resolve(ctx, hash, t0, nil); err != nil {
			t.Fatal(err)
		}
	}
	revoked := contracts.Example(t, keys.TypeRevoked)
	if err := s.HandleEvent(ctx, revoked); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resolve(ctx, revokedHash, t0, nil); !errors.Is(err, keys.ErrRevoked) {
		t.Fatalf("the revoked key resolves with %v", err)
	}
	if _, err := s.Resolve(ctx, "other", t0, nil); err != nil {
		t.Fatalf("another key: %v", err)
	}

	if ok, err := s.OriginAllowed(ctx, origin, t0, nil); ok || err != nil {
		t.Fatalf("origin before its key: %v, %v", ok, err)
	}
	auth.mu.Lock()
	auth.origins[origin] = true
	auth.mu.Unlock()
	created := contracts.Example(t, keys.TypeCreated)
	if err := s.HandleEvent(ctx, created); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.OriginAllowed(ctx, origin, t0, nil); !ok || err != nil {
		t.Fatalf("origin after its key was created: %v, %v", ok, err)
	}

	for _, m := range []broker.Message{revoked, created} {
		if err := s.HandleEvent(ctx, brokertest.NextVersion(t, m)); !broker.IsPoison(err) {
			t.Fatalf("%s of the next version: %v, want poison", m.Headers[broker.HeaderType], err)
		}
	}
}
