package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// releaseByID posts checkout's release of a hold by its hold id.
func releaseByID(t *testing.T, env *regtest.Env, tok, holdID string) testkit.Response {
	t.Helper()
	return env.Do(t, "POST", "/internal/holds/release", map[string]any{"holdId": holdID, "reason": "CANCELLED"}, tok)
}

// ordersOfHold counts the orders made for a hold id.
func ordersOfHold(t *testing.T, env *regtest.Env, holdID string) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM orders WHERE hold_id = $1`, holdID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// waitingOnLocks waits until n sessions of the test database wait for a lock.
func waitingOnLocks(t *testing.T, env *regtest.Env, n int) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, func() string {
		var waiting int
		if err := env.Pool.QueryRow(t.Context(),
			`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return ""
		}
		return fmt.Sprintf("%d sessions wait for a lock, want %d", waiting, n)
	})
}

// holdGivenUpAfter posts a hold as checkout does, giving up on its answer after d: the
// answer is lost, whatever registration does with the request.
func holdGivenUpAfter(t *testing.T, env *regtest.Env, body map[string]any, d time.Duration) error {
	t.Helper()
	raw, _ := json.Marshal(body)
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, env.URL+"/internal/holds", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	p := identity.Principal{OrganizerID: orgA, KeyID: "key_pk_" + orgA, KeyType: identity.Publishable}
	req.Header.Set(identity.Header, env.Issuers.Token(t, identity.Checkout, identity.Registration, p))
	res, err := http.DefaultClient.Do(req)
	if err == nil {
		res.Body.Close()
	}
	return err
}

// TestHoldWhoseAnswerWasLostIsReleasedByItsID: checkout gives up on a hold whose transaction
// is still running (here it waits for the category's ledger row) and releases it by the hold
// id it chose. The release waits for the hold, then cancels its order: no place stays held.
// The same hold id again is that order, never a second hold.
func TestHoldWhoseAnswerWasLostIsReleasedByItsID(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	exp := time.Now().Add(30 * time.Minute)
	// A first hold makes the category's ledger row, which the test then locks.
	first := env.Do(t, "POST", "/internal/holds", holdBody("warm-1", exp, holdReg("Warm")), tok)
	if first.Status != 201 || releaseByID(t, env, tok, "warm-1").Status != 200 {
		t.Fatalf("first hold: %d %s", first.Status, first.Raw)
	}
	blocker, err := env.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Rollback(t.Context()) //nolint:errcheck // committed below
	if _, err := blocker.Exec(t.Context(), `SELECT 1 FROM places WHERE category_id = 'cat_rx' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}

	if err := holdGivenUpAfter(t, env, holdBody("lost-1", exp, holdReg("Ana"), holdReg("Bea")), 300*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the hold's answer arrived (%v); the test needs it lost", err)
	}
	waitingOnLocks(t, env, 1) // the hold, on the ledger row
	released := make(chan testkit.Response, 1)
	go func() { released <- releaseByID(t, env, tok, "lost-1") }()
	waitingOnLocks(t, env, 2) // and the release, on the hold id
	if err := blocker.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	r := <-released
	if r.Status != 200 || r.Body["holdId"] != "lost-1" || r.Body["orderId"] == nil || r.Body["status"] != "CANCELLED" {
		t.Fatalf("release by hold id: %d %s", r.Status, r.Raw)
	}
	if c, h := places(t, env, "cat_rx"); c != 0 || h != 0 || ordersOfHold(t, env, "lost-1") != 1 {
		t.Fatalf("after the release: %d confirmed, %d held, %d orders; want none held, one order", c, h, ordersOfHold(t, env, "lost-1"))
	}
	again := env.Do(t, "POST", "/internal/holds", holdBody("lost-1", exp, holdReg("Ana"), holdReg("Bea")), tok)
	if again.Status != 200 || again.Body["orderId"] != r.Body["orderId"] || again.Body["status"] != "CANCELLED" {
		t.Fatalf("the same hold id again: %d %s", again.Status, again.Raw)
	}
	if _, h := places(t, env, "cat_rx"); h != 0 || ordersOfHold(t, env, "lost-1") != 1 {
		t.Fatalf("a retried hold holds %d places in %d orders", h, ordersOfHold(t, env, "lost-1"))
	}
	if r := releaseByID(t, env, tok, "lost-1"); r.Status != 200 || r.Body["status"] != "CANCELLED" {
		t.Fatalf("releasing again: %d %s", r.Status, r.Raw)
	}
}

// TestHoldReleasedBeforeItArrivesIsRefused: the release of a hold id can reach registration
// before the hold itself (its request still on the way): nothing is found, the id is
// remembered, and the hold that arrives afterwards is refused (409), holding
// nothing. Another organizer's release of the same id touches nothing of this one's.
func TestHoldReleasedBeforeItArrivesIsRefused(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	r := releaseByID(t, env, tok, "early-1")
	if r.Status != 200 || r.Body["orderId"] != nil || r.Body["status"] != nil {
		t.Fatalf("release of a hold never made: %d %s", r.Status, r.Raw)
	}
	late := env.Do(t, "POST", "/internal/holds", holdBody("early-1", time.Now().Add(time.Hour), holdReg("Ana")), tok)
	wantError(t, late, 409, "hold early-1 was released")
	wantCode(t, late, "hold_released")
	if _, h := places(t, env, "cat_rx"); h != 0 || ordersOfHold(t, env, "early-1") != 0 {
		t.Fatalf("a released hold id holds %d places", h)
	}

	held := env.Do(t, "POST", "/internal/holds", holdBody("mine-1", time.Now().Add(time.Hour), holdReg("Bea")), tok)
	if held.Status != 201 {
		t.Fatalf("hold: %d %s", held.Status, held.Raw)
	}
	if r := releaseByID(t, env, env.Browser(t, orgB), "mine-1"); r.Status != 200 || r.Body["orderId"] != nil {
		t.Fatalf("another organizer's release: %d %s", r.Status, r.Raw)
	}
	if orderStatus(t, env, held.Body["orderId"].(string)) != "PENDING" {
		t.Fatal("another organizer's release released this one's hold")
	}
	// A paid order is not released; a request without a hold id or a reason is refused.
	order := held.Body["orderId"].(string)
	if pay(t, env, order, "pi_1", 6500); orderStatus(t, env, order) != "COMPLETED" {
		t.Fatalf("paid order %s", orderStatus(t, env, order))
	}
	wantError(t, releaseByID(t, env, tok, "mine-1"), 409, "COMPLETED")
	wantError(t, env.Do(t, "POST", "/internal/holds/release", map[string]any{"reason": "CANCELLED"}, tok), 400, "holdId is required")
	wantError(t, env.Do(t, "POST", "/internal/holds/release", map[string]any{"holdId": "x"}, tok), 400, "reason must be one of")
}

// TestConcurrentHoldsWithOneIDHoldOnce: retries of one hold sent at once (checkout resuming an
// attempt, a network retry) make one order holding its places once.
func TestConcurrentHoldsWithOneIDHoldOnce(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	body := holdBody("retry-1", time.Now().Add(time.Hour), holdReg("Ana"), holdReg("Bea"))
	var wg sync.WaitGroup
	orders := make(chan string, 10)
	for range 10 {
		wg.Go(func() {
			if r := env.Do(t, "POST", "/internal/holds", body, tok); r.Status == 201 || r.Status == 200 {
				orders <- r.Body["orderId"].(string)
			}
		})
	}
	wg.Wait()
	close(orders)
	seen := map[string]int{}
	for o := range orders {
		seen[o]++
	}
	if _, h := places(t, env, "cat_rx"); len(seen) != 1 || h != 2 || ordersOfHold(t, env, "retry-1") != 1 {
		t.Fatalf("10 holds with one id: orders %v, %d places held; want one order holding 2", seen, h)
	}
}
