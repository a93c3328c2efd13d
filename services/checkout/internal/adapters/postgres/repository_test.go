package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	chkpg "github.com/podiumhq/podium/services/checkout/internal/adapters/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// t0 is when the tests' checkouts are made.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func newCheckout(id, promo string) domain.Checkout {
	now := t0
	c := domain.Checkout{
		ID: id, OrganizerID: "org_1", KeyID: "key_1", EventID: "evt_1", State: domain.StateCreated, Currency: "EUR", Total: 100,
		Quote: domain.Quote{EventID: "evt_1", Currency: "EUR", Total: 100}, PromoState: domain.PromoNone,
		PurchaserEmail: "a@example.com", PurchaserName: "Ana", HoldExpiresAt: now.Add(35 * time.Minute), CreatedAt: now, UpdatedAt: now,
		LegalSignature: &domain.LegalSignature{SignerName: "Ana", AuthorityAccepted: true}, IPEnrichment: []byte(`{"provider":"ipquery","countryCode":"ES"}`),
	}
	if promo != "" {
		c.Promocode, c.PromoState = promo, domain.PromoReserved
	}
	return c
}

func TestPromocodeReservationsAreAtomic(t *testing.T) {
	repo := chkpg.New(checkouttest.Pool(t))
	ctx := context.Background()
	limit := int64(3)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, exhausted := 0, 0
	for range 20 {
		wg.Go(func() {
			_, _, err := repo.CreateCheckout(ctx, newCheckout(domain.NewCheckoutID(), "LIMITED"), &limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, domain.ErrPromocodeExhausted):
				exhausted++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "LIMITED", t0); ok != 3 || exhausted != 17 || used != 3 {
		t.Fatalf("%d reserved, %d refused, counter %d; want 3, 17, 3", ok, exhausted, used)
	}
}

// TestPromocodeUseLastsAsLongAsItsHold: a use counts while its checkout awaits payment with
// its hold alive, or is paid; once the hold lapsed it is free for the next buyer at once,
// whether or not the release was recorded.
func TestPromocodeUseLastsAsLongAsItsHold(t *testing.T) {
	repo := chkpg.New(checkouttest.Pool(t))
	ctx := context.Background()
	one := int64(1)
	first := newCheckout("chk_first", "ONCE")
	if _, _, err := repo.CreateCheckout(ctx, first, &one); err != nil {
		t.Fatal(err)
	}
	second := newCheckout("chk_second", "ONCE")
	if _, _, err := repo.CreateCheckout(ctx, second, &one); !errors.Is(err, domain.ErrPromocodeExhausted) {
		t.Fatalf("a second use while the first hold lives: %v", err)
	}
	lapsed := first.HoldExpiresAt
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "ONCE", lapsed); used != 0 {
		t.Fatalf("%d uses once the hold lapsed, want 0", used)
	}
	third := newCheckout("chk_third", "ONCE")
	third.CreatedAt, third.HoldExpiresAt = lapsed, lapsed.Add(10*time.Minute)
	if _, _, err := repo.CreateCheckout(ctx, third, &one); err != nil {
		t.Fatalf("the use of a lapsed hold was not given to the next buyer: %v", err)
	}
	// A paid checkout keeps its use after its hold lapsed.
	if _, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_third"}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.Held("ord_3", lapsed)
		c.ApplyPayment(domain.PaymentEvent{Kind: domain.PaymentCompleted, Paid: true}, lapsed)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "ONCE", third.HoldExpiresAt.Add(time.Hour)); used != 1 {
		t.Fatalf("%d uses of a paid checkout after its hold, want 1", used)
	}
}

func TestCheckoutRoundTripAndUpdates(t *testing.T) {
	repo := chkpg.New(checkouttest.Pool(t))
	ctx := context.Background()
	c := newCheckout("chk_1", "CODE")
	if _, existed, err := repo.CreateCheckout(ctx, c, nil); err != nil || existed {
		t.Fatal(existed, err)
	}
	again, existed, err := repo.CreateCheckout(ctx, newCheckout("chk_1", "CODE"), nil)
	if err != nil || !existed || again.ID != "chk_1" || again.LegalSignature.SignerName != "Ana" || string(again.IPEnrichment) == "" {
		t.Fatalf("second create: %+v %v %v", again, existed, err)
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "CODE", again.CreatedAt); used != 1 {
		t.Fatalf("a resumed checkout counted its promocode twice: %d", used)
	}
	now := t0.Add(time.Minute)
	got, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_1"}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.Held("ord_1", now)
		c.Opened(domain.PaymentSession{ID: "cs_1", URL: "https://pay", ExpiresAt: now}, now)
		return nil, nil
	})
	if err != nil || got.State != domain.StateOpen {
		t.Fatal(got.State, err)
	}
	for _, ref := range []app.CheckoutRef{{OrderID: "ord_1"}, {SessionID: "cs_1"}, {SessionID: "cs_other", ID: "chk_1"}} {
		if c, err := repo.Checkout(ctx, ref); err != nil || c.ID != "chk_1" || c.SessionURL != "https://pay" {
			t.Fatalf("by %+v: %+v %v", ref, c, err)
		}
	}
	if _, err := repo.Checkout(ctx, app.CheckoutRef{OrderID: "ord_x"}); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatal(err)
	}
	// Releasing the promocode moves the counter once; an inbox message applies once.
	release := func(c *domain.Checkout) ([]domain.Message, error) {
		c.ApplyOrder(domain.OrderEvent{Type: domain.EventOrderReleased}, now)
		return nil, nil
	}
	for i, want := range []app.Outcome{app.Applied, app.Duplicate} {
		if _, outcome, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{OrderID: "ord_1"}, Consumer: "test", MessageID: "msg_1"}, release); err != nil || outcome != want {
			t.Fatalf("delivery %d: %v %v", i, outcome, err)
		}
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "CODE", now); used != 0 {
		t.Fatalf("counter %d after the release", used)
	}
	if _, outcome, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{OrderID: "ord_x"}, Consumer: "test", MessageID: "msg_2"}, release); err != nil || outcome != app.Unknown {
		t.Fatalf("unknown order: %v %v", outcome, err)
	}
	// A failing change rolls back: nothing recorded in the inbox.
	boom := errors.New("boom")
	if _, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_1"}, Consumer: "test", MessageID: "msg_3"}, func(*domain.Checkout) ([]domain.Message, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, outcome, _ := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_1"}, Consumer: "test", MessageID: "msg_3"}, release); outcome != app.Applied {
		t.Fatal("a failed message was recorded as processed")
	}
}

func TestIdempotencyRecords(t *testing.T) {
	repo := chkpg.New(checkouttest.Pool(t))
	ctx := context.Background()
	now := t0
	rec := domain.IdempotencyRecord{KeyID: "key_1", Key: "k-0000001", RequestHash: []byte{1}, CheckoutID: "chk_a", LockedUntil: now.Add(time.Minute), ExpiresAt: now.Add(48 * time.Hour)}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 20 {
		wg.Go(func() {
			ok, err := repo.InsertIdempotency(ctx, rec)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d requests won the key", wins)
	}
	if _, ok, _ := repo.TakeOverIdempotency(ctx, rec, "chk_b", now); ok {
		t.Fatal("a running key with a live lease was taken over")
	}
	// Lapsed lease, resumable checkout: the same checkout carries on.
	if _, _, err := repo.CreateCheckout(ctx, newCheckout("chk_a", ""), nil); err != nil {
		t.Fatal(err)
	}
	later := now.Add(2 * time.Minute)
	if id, ok, err := repo.TakeOverIdempotency(ctx, rec, "chk_b", later); err != nil || !ok || id != "chk_a" {
		t.Fatalf("take-over of a lapsed key: %s %v %v", id, ok, err)
	}
	// A failed attempt is retried under a new checkout.
	if err := repo.FailIdempotency(ctx, "key_1", "k-0000001", "chk_a"); err != nil {
		t.Fatal(err)
	}
	if id, ok, err := repo.TakeOverIdempotency(ctx, rec, "chk_c", now); err != nil || !ok || id != "chk_c" {
		t.Fatalf("take-over of a failed key: %s %v %v", id, ok, err)
	}
	got, found, err := repo.Idempotency(ctx, "key_1", "k-0000001")
	if err != nil || !found || got.State != domain.IdemRunning || got.CheckoutID != "chk_c" {
		t.Fatalf("record %+v %v %v", got, found, err)
	}
	if n, err := repo.DeleteExpiredIdempotency(ctx, now.Add(49*time.Hour)); err != nil || n != 1 {
		t.Fatalf("deleted %d (%v)", n, err)
	}
}
