package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

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
		return nil, c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_" + id}, decided)
	}); err != nil {
		t.Fatal(err)
	}
}

// TestRefundsAreClaimedByOneWorkerAtATime: workers claiming at once each get different due
// refunds, every due one is claimed once, none before it is due, and a claimed refund is
// claimed again only once its lease ended.
func TestRefundsAreClaimedByOneWorkerAtATime(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	for i := range 30 {
		pendingRefund(t, repo, fmt.Sprintf("chk_due_%02d", i), t0)
	}
	pendingRefund(t, repo, "chk_later", t0.Add(time.Hour))
	now, lease := t0.Add(time.Minute), t0.Add(2*time.Minute)
	var mu sync.Mutex
	claimed := map[string]int{}
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			got, err := repo.ClaimRefunds(ctx, now, lease, 4)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, c := range got {
				claimed[c.ID]++
				if c.State != domain.StateRefundPending || !c.RefundNextAttemptAt.Equal(lease) {
					t.Errorf("claimed %s: %s, next attempt %v", c.ID, c.State, c.RefundNextAttemptAt)
				}
			}
		})
	}
	wg.Wait()
	rest, err := repo.ClaimRefunds(ctx, now, lease, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rest {
		claimed[c.ID]++
	}
	for id, n := range claimed {
		if n != 1 || id == "chk_later" {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
	if len(claimed) != 30 {
		t.Fatalf("%d refunds claimed, want the 30 due", len(claimed))
	}
	if again, err := repo.ClaimRefunds(ctx, lease.Add(-time.Microsecond), lease.Add(time.Minute), 100); err != nil || len(again) != 0 {
		t.Fatalf("claimed again within the lease: %d %v", len(again), err)
	}
	if again, err := repo.ClaimRefunds(ctx, lease, lease.Add(time.Minute), 100); err != nil || len(again) != 30 {
		t.Fatalf("claimed again once the lease ended: %d, want 30 (%v)", len(again), err)
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
	first, err1 := repo.ClaimRefunds(t.Context(), t0, t0.Add(time.Minute), 1)
	second, err2 := repo.ClaimRefunds(t.Context(), t0, t0.Add(time.Minute), 1)
	if err := errors.Join(err1, err2); err != nil || len(first) != 1 || len(second) != 1 || first[0].ID != "chk_old" || second[0].ID != "chk_new" {
		t.Fatalf("claimed %d then %d (%v), want the older version's first, then the other", len(first), len(second), err)
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
			c.RefundRefused(&domain.RefundError{Code: "charge_disputed", Message: "Charge ch_1 is disputed.", Permanent: true}, at)
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
