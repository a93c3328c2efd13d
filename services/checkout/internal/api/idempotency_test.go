package api_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

func TestSameKeyAndBodyReplaysTheSession(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "retry-key-0001"
	first := session(t, env, b)
	if first.Status != http.StatusCreated || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %s", first.Status, first.Raw)
	}
	// The very same bytes again, and the same purchase in other bytes (other key order and
	// spacing, which the process has not seen): the same request.
	indented, _ := json.MarshalIndent(b, "", "    ")
	for _, body := range []any{checkouttest.Clone(b), json.RawMessage(indented), json.RawMessage(reversed(b))} {
		again := env.Browser(t, "session", body, checkouttest.KeyID)
		if again.Status != http.StatusCreated || string(again.Raw) != string(first.Raw) || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %d %s, want %s", again.Status, again.Raw, first.Raw)
		}
		conforms(t, "browserCheckoutSession", again)
	}
	if env.Stripe.Hits(checkouttest.RouteSessions) != 1 || env.Registration.HoldCalls.Load() != 1 || env.Catalog.Calls.Load() != 1 {
		t.Fatalf("replays reached Stripe (%d), registration (%d) or the catalog (%d)",
			env.Stripe.Hits(checkouttest.RouteSessions), env.Registration.HoldCalls.Load(), env.Catalog.Calls.Load())
	}
	// Another body with the key: 422. Another publishable key: its own key space.
	other := checkouttest.Clone(b)
	other["teamName"] = "Team B"
	wantError(t, session(t, env, other), 422, []any{"idempotencyKey was already used with a different request body"})
	if r := env.Browser(t, "session", b, "key_pub_2"); r.Status != http.StatusCreated || r.Body["orderId"] == first.Body["orderId"] {
		t.Fatalf("another key: %d %s first %s holds %d calls %d", r.Status, r.Raw, first.Raw, env.Registration.Holds.Load(), env.Registration.HoldCalls.Load())
	}
	// Without a key, nothing is deduplicated.
	delete(b, "idempotencyKey")
	session(t, env, b)
	session(t, env, b)
	if env.Registration.Holds.Load() != 4 {
		t.Fatalf("%d holds, want 4", env.Registration.Holds.Load())
	}
}

func TestConcurrentIdenticalRequestsMakeOneHoldAndOneStripeCall(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "double-click-0001"
	const n = 50
	answers := make([]testkit.Response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			answers[i] = session(t, env, b)
		})
	}
	close(start)
	wg.Wait()
	ran := 0
	for i, a := range answers {
		if a.Status != http.StatusCreated || string(a.Raw) != string(answers[0].Raw) {
			t.Fatalf("answer %d: %d %s, want %s", i, a.Status, a.Raw, answers[0].Raw)
		}
		if a.Header.Get("Idempotent-Replayed") != "true" {
			ran++
		}
	}
	// One request ran; the other 49 waited for it and replayed its answer.
	if ran != 1 {
		t.Fatalf("%d requests ran, want 1 (the others replay its answer)", ran)
	}
	if s, h, c := env.Stripe.Hits(checkouttest.RouteSessions), env.Registration.HoldCalls.Load(), env.Registration.Holds.Load(); s != 1 || h != 1 || c != 1 {
		t.Fatalf("%d Stripe calls, %d hold calls, %d holds; want one of each", s, h, c)
	}
	// What reached stripe-mock carried the one checkout's idempotency key, and that checkout
	// is the only one recorded.
	order, _ := env.Registration.LastOrder()
	if keys := env.Stripe.IdempotencyKeys(); len(keys) != 1 || keys["podium-checkout-"+order.HoldID] != 1 {
		t.Fatalf("Stripe idempotency keys %v, want podium-checkout-%s once", keys, order.HoldID)
	}
	if n := count(t, env, `SELECT count(*) FROM checkouts`); n != 1 {
		t.Fatalf("%d checkouts recorded, want 1", n)
	}
}

func TestRunningKeyAnswers409ThenLapses(t *testing.T) {
	env := start(t, checkouttest.Options{IdempotencyWait: 200 * time.Millisecond})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "in-flight-0001"
	hash := hashOf(t, b)
	// Another process owns the key (its lease runs for a minute more).
	if _, err := env.Pool.Exec(t.Context(), `INSERT INTO idempotency_keys
		(key_id, idempotency_key, request_hash, state, checkout_id, locked_until, created_at, expires_at, livemode)
		VALUES ($1, $2, $3, 'RUNNING', 'chk_elsewhere', now() + interval '1 minute', now(), now() + interval '48 hours', true)`,
		checkouttest.KeyID, "in-flight-0001", hash); err != nil {
		t.Fatal(err)
	}
	r := session(t, env, b)
	wantError(t, r, 409, "a request with this idempotencyKey is still being processed")
	wantCode(t, r, "idempotency_key_in_use")
	if r.Header.Get("Retry-After") != "1" || env.Registration.HoldCalls.Load() != 0 {
		t.Fatal("409 without Retry-After 1, or a hold was made")
	}
	// The owner died: once its lease lapsed, the next request takes the key over.
	if _, err := env.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET locked_until = now() - interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	if r := session(t, env, b); r.Status != http.StatusCreated {
		t.Fatalf("after the lease lapsed: %d %s", r.Status, r.Raw)
	}
}

// TestInterruptedAttemptResumesWithTheSameHold plays a process that died after holding the
// places: the next request takes the key over and carries on with the same checkout, so
// registration returns the same order and Stripe gets the same idempotency key.
func TestInterruptedAttemptResumesWithTheSameHold(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"], b["promocode"] = "crashed-0001", "ONCE"
	first := session(t, env, b)
	order, _ := env.Registration.LastOrder()
	// Roll the records back to "held, Stripe not answered yet, lease lapsed".
	if _, err := env.Pool.Exec(t.Context(), `UPDATE checkouts SET state = 'HELD', session_id = NULL WHERE id = $1`, order.HoldID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET state = 'RUNNING', response = NULL, locked_until = now() - interval '1 second'`); err != nil {
		t.Fatal(err)
	}
	env.Restart(t) // the process that "died" took what it remembered with it
	again := session(t, env, b)
	if again.Status != http.StatusCreated || again.Body["orderId"] != first.Body["orderId"] || env.Registration.Holds.Load() != 1 || env.Registration.HoldCalls.Load() != 2 {
		t.Fatalf("resume: %d %s (holds %d, calls %d)", again.Status, again.Raw, env.Registration.Holds.Load(), env.Registration.HoldCalls.Load())
	}
	if keys := env.Stripe.IdempotencyKeys(); keys["podium-checkout-"+order.HoldID] != 2 || len(keys) != 1 {
		t.Fatalf("Stripe idempotency keys %v", keys)
	}
	if uses(t, env, "ONCE") != 1 {
		t.Fatalf("the resumed attempt counted the promocode again: %d", uses(t, env, "ONCE"))
	}
}

func TestKeysAreRetainedThenSwept(t *testing.T) {
	env := start(t, checkouttest.Options{})
	b := checkouttest.Purchase()
	b["idempotencyKey"] = "retained-0001"
	if r := session(t, env, b); r.Status != http.StatusCreated {
		t.Fatal(r.Status)
	}
	var expires time.Time
	if err := env.Pool.QueryRow(t.Context(), `SELECT expires_at FROM idempotency_keys`).Scan(&expires); err != nil {
		t.Fatal(err)
	}
	if d := time.Until(expires); d < 47*time.Hour || d > 49*time.Hour {
		t.Fatalf("retained for %s, want 48h", d)
	}
	env.Clock.Advance(47 * time.Hour)
	if err := env.Service.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	other := checkouttest.Clone(b)
	other["teamName"] = "Team B"
	wantError(t, session(t, env, other), 422, []any{"idempotencyKey was already used with a different request body"})
	env.Clock.Advance(2 * time.Hour)
	if err := env.Service.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := count(t, env, `SELECT count(*) FROM idempotency_keys`); n != 0 {
		t.Fatalf("%d keys left after their retention", n)
	}
	if r := session(t, env, other); r.Status != http.StatusCreated {
		t.Fatalf("the key after its retention: %d %s", r.Status, r.Raw)
	}
	// The first body's answer, remembered in process, ended with its retention too.
	b["idempotencyKey"] = "retained-0002"
	first := session(t, env, b)
	env.Clock.Advance(49 * time.Hour)
	if r := session(t, env, b); r.Status != http.StatusCreated || r.Header.Get("Idempotent-Replayed") != "" || r.Body["orderId"] == first.Body["orderId"] {
		t.Fatalf("the same bytes after their retention were replayed: %d %s", r.Status, r.Raw)
	}
}

// reversed encodes m with its top-level keys in reverse order.
func reversed(m map[string]any) []byte {
	keys := slices.Sorted(maps.Keys(m))
	slices.Reverse(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(m[k])
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func hashOf(t testing.TB, body map[string]any) []byte {
	raw, err := jsonMarshal(body)
	if err != nil {
		t.Fatal(err)
	}
	h, err := domain.RequestHash(raw)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
