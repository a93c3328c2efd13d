package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/apikey"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/auth/internal/authtest"
)

// refuseKeyWrites makes every UPDATE of api_keys fail until the returned function is called.
func refuseKeyWrites(t *testing.T, env *authtest.Env) (allow func()) {
	t.Helper()
	ctx := t.Context()
	for _, stmt := range []string{
		`CREATE FUNCTION refuse_key_writes() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN RAISE EXCEPTION 'api_keys is read-only in this test'; END $$`,
		`CREATE TRIGGER refuse_key_writes BEFORE UPDATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION refuse_key_writes()`,
	} {
		if _, err := env.Pool.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		if _, err := env.Pool.Exec(ctx, `DROP TRIGGER refuse_key_writes ON api_keys`); err != nil {
			t.Fatal(err)
		}
	}
}

// lastUsed returns the lastUsedAt of the organizer's key id as listed by the admin API.
func lastUsed(t *testing.T, env *authtest.Env, org, id string) any {
	t.Helper()
	list := env.Admin(t, http.MethodGet, "/admin/organizers/"+org+"/keys", nil)
	for _, k := range list.Body["data"].([]any) {
		if k := k.(map[string]any); k["id"] == id {
			return k["lastUsedAt"]
		}
	}
	t.Fatalf("key %s not listed: %s", id, list.Raw)
	return nil
}

// TestVerifyWritesNothing: verification answers while the keys table refuses every write, so
// a slow or locked table cannot hold up the gateway's lookups; the uses are kept through a
// failed flush and written by the next one.
func TestVerifyWritesNothing(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	sk := env.Key(t, org, map[string]any{"type": "secret", "name": "backend", "scopes": []string{"events:read"}})
	allow := refuseKeyWrites(t, env)
	for range 3 {
		r := env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(sk["key"].(string))})
		if r.Status != http.StatusOK || r.Body["id"] != sk["id"] {
			t.Fatalf("verify with the keys table read-only: %d %s", r.Status, r.Raw)
		}
	}
	if err := env.Service.FlushKeyUses(t.Context()); err == nil {
		t.Fatal("a flush into a read-only table succeeded")
	}
	if used := lastUsed(t, env, org, sk["id"].(string)); used != nil {
		t.Fatalf("lastUsedAt %v before any flush succeeded", used)
	}
	allow()
	if err := env.Service.FlushKeyUses(t.Context()); err != nil {
		t.Fatal(err)
	}
	if used := lastUsed(t, env, org, sk["id"].(string)); used == nil {
		t.Fatal("the uses kept through a failed flush were not written by the next")
	}
}

// TestKeyUsesAreFlushedPeriodicallyAndAtShutdown: the flusher writes recorded uses on its own,
// and a use recorded after its last tick is written when it stops.
func TestKeyUsesAreFlushedPeriodicallyAndAtShutdown(t *testing.T) {
	env := authtest.Start(t, authtest.Options{})
	org := env.Organizer(t, "Trail Club")
	a := env.Key(t, org, map[string]any{"type": "secret", "name": "a", "scopes": []string{"events:read"}})
	b := env.Key(t, org, map[string]any{"type": "secret", "name": "b", "scopes": []string{"events:read"}})
	verify := func(k map[string]any) {
		if r := env.Internal(t, "/internal/keys/verify", map[string]any{"keyHash": apikey.Hash(k["key"].(string))}); r.Status != http.StatusOK {
			t.Fatalf("verify: %d %s", r.Status, r.Raw)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- env.Service.RunKeyUseFlusher(ctx, 20*time.Millisecond, testkit.Logger(t)) }()
	verify(a)
	testkit.Eventually(t, 5*time.Second, func() string {
		if lastUsed(t, env, org, a["id"].(string)) == nil {
			return "the flusher never wrote the use"
		}
		return ""
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	ctx, cancel = context.WithCancel(t.Context())
	go func() { done <- env.Service.RunKeyUseFlusher(ctx, time.Hour, testkit.Logger(t)) }()
	verify(b)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if lastUsed(t, env, org, b["id"].(string)) == nil {
		t.Fatal("a use recorded before the flusher stopped was not written")
	}
}
