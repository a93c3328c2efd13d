package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// pendingRefund stores a paid checkout and decides its refund at decided.
func pendingRefund(t *testing.T, repo *store.Repository, id string, decided time.Time) {
	t.Helper()
	if _, _, err := repo.CreateCheckout(t.Context(), newCheckout(id, "")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := repo.Update(t.Context(), app.Update{Ref: app.CheckoutRef{ID: id}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.State, c.OrderID = domain.StatePaid, "ord_"+id
		c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_" + id}, decided)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// dbNow reads the database's clock, which claims' leases are measured on.
func dbNow(t *testing.T, pool *pgxpool.Pool) time.Time {
	t.Helper()
	var now time.Time
	if err := pool.QueryRow(t.Context(), `SELECT now()`).Scan(&now); err != nil {
		t.Fatal(err)
	}
	return now
}

// TestRefundsAreClaimedByOneWorkerAtATime: workers claiming at once each get a different due
// refund, one at a time; every due one is claimed once, none before it is due, each with its
// first claim and a lease on the database's clock; a claimed refund is claimed again only once
// its lease ended, with its next claim.
func TestRefundsAreClaimedByOneWorkerAtATime(t *testing.T) {
	pool := checkouttest.Pool(t)
	repo := store.New(pool)
	ctx := t.Context()
	for i := range 12 {
		pendingRefund(t, repo, fmt.Sprintf("chk_due_%02d", i), t0)
	}
	pendingRefund(t, repo, "chk_later", t0.Add(time.Hour))
	now, lease, before := t0.Add(time.Minute), 5*time.Minute, dbNow(t, pool)
	var mu sync.Mutex
	claimed := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				c, ok, err := repo.ClaimRefund(ctx, now, lease)
				if err != nil || !ok {
					if err != nil {
						t.Error(err)
					}
					return
				}
				mu.Lock()
				claimed[c.ID]++
				mu.Unlock()
				if c.State != domain.StateRefundPending || c.RefundClaim != 1 || c.RefundClaimedUntil == nil || c.RefundClaimedUntil.Before(before.Add(lease)) ||
					!c.RefundNextAttemptAt.Equal(t0) {
					t.Errorf("claimed %s: %s, claim %d until %v, next attempt %v", c.ID, c.State, c.RefundClaim, c.RefundClaimedUntil, c.RefundNextAttemptAt)
				}
			}
		})
	}
	wg.Wait()
	for id, n := range claimed {
		if n != 1 || id == "chk_later" {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
	if len(claimed) != 12 {
		t.Fatalf("%d refunds claimed, want the 12 due", len(claimed))
	}
	if c, ok, err := repo.ClaimRefund(ctx, t0.Add(2*time.Hour), lease); err != nil || !ok || c.ID != "chk_later" {
		t.Fatalf("once due, the later refund: %s %v %v", c.ID, ok, err)
	}
	if _, ok, err := repo.ClaimRefund(ctx, t0.Add(2*time.Hour), lease); err != nil || ok {
		t.Fatalf("claimed again within the leases: %v %v", ok, err)
	}
	if _, err := pool.Exec(ctx, `UPDATE checkouts SET refund_claimed_until = now() - interval '1 second' WHERE id = 'chk_due_03'`); err != nil {
		t.Fatal(err)
	}
	if c, ok, err := repo.ClaimRefund(ctx, now, lease); err != nil || !ok || c.ID != "chk_due_03" || c.RefundClaim != 2 {
		t.Fatalf("claimed again once the lease ended: %s claim %d (%v %v), want chk_due_03's second", c.ID, c.RefundClaim, ok, err)
	}
}

// TestARefundDecidedByAnOlderVersionIsClaimed: during a rollout an older version decides
// refunds without a next attempt (its rows have none); they are due at once, first.
func TestARefundDecidedByAnOlderVersionIsClaimed(t *testing.T) {
	pool := checkouttest.Pool(t)
	repo := store.New(pool)
	pendingRefund(t, repo, "chk_new", t0)
	pendingRefund(t, repo, "chk_old", t0.Add(time.Minute))
	if _, err := pool.Exec(t.Context(), `UPDATE checkouts SET refund_next_attempt_at = NULL WHERE id = 'chk_old'`); err != nil {
		t.Fatal(err)
	}
	first, ok1, err1 := repo.ClaimRefund(t.Context(), t0, time.Minute)
	second, ok2, err2 := repo.ClaimRefund(t.Context(), t0, time.Minute)
	if err := errors.Join(err1, err2); err != nil || !ok1 || !ok2 || first.ID != "chk_old" || second.ID != "chk_new" {
		t.Fatalf("claimed %s then %s (%v %v %v), want the older version's first", first.ID, second.ID, ok1, ok2, err)
	}
}

// TestFailedRefundsAreListedWithTheirRefusal: REFUND_FAILED checkouts come back, oldest
// refusal first, with Stripe's code and message; others do not.
func TestFailedRefundsAreListedWithTheirRefusal(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	for i, id := range []string{"chk_second", "chk_first", "chk_pending"} {
		pendingRefund(t, repo, id, t0)
		if id == "chk_pending" {
			continue
		}
		at := t0.Add(time.Duration(2-i) * time.Minute)
		if _, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: id}}, func(c *domain.Checkout) ([]domain.Message, error) {
			c.RefundRefused(c.RefundClaim, &domain.RefundError{Code: "charge_disputed", Message: "Charge ch_1 is disputed.", Permanent: true}, at)
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	failed, err := repo.FailedRefunds(ctx)
	if err != nil || len(failed) != 2 || failed[0].ID != "chk_first" || failed[1].ID != "chk_second" {
		t.Fatalf("failed refunds %+v %v", failed, err)
	}
	if c := failed[0]; c.RefundErrorCode != "charge_disputed" || c.RefundErrorMessage != "Charge ch_1 is disputed." || !c.RefundFailedAt.Equal(t0.Add(time.Minute)) ||
		c.RefundAttempts != 1 || c.RefundNextAttemptAt != nil || c.State != domain.StateRefundFailed {
		t.Fatalf("failed refund %+v", c)
	}
}
