package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/adapters/store"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// t0 is when the tests' checkouts are made.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// limited is a checkout with id using promo, a code of at most maxUses uses.
func limited(id, promo string, maxUses int64) domain.Checkout {
	c := newCheckout(id, promo)
	c.PromoMaxUses = &maxUses
	return c
}

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
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, exhausted := 0, 0
	for range 20 {
		wg.Go(func() {
			_, _, err := repo.CreateCheckout(ctx, limited(domain.NewCheckoutID(), "LIMITED", 3))
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
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "LIMITED", false, t0); ok != 3 || exhausted != 17 || used != 3 {
		t.Fatalf("%d reserved, %d refused, counter %d; want 3, 17, 3", ok, exhausted, used)
	}
}

// TestPromocodeUseLastsAsLongAsItsHold: a use counts while its checkout awaits payment with
// its hold alive, or is paid; once the hold lapsed it is free for the next buyer at once,
// whether or not the release was recorded.
func TestPromocodeUseLastsAsLongAsItsHold(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	first := limited("chk_first", "ONCE", 1)
	if _, _, err := repo.CreateCheckout(ctx, first); err != nil {
		t.Fatal(err)
	}
	second := limited("chk_second", "ONCE", 1)
	if _, _, err := repo.CreateCheckout(ctx, second); !errors.Is(err, domain.ErrPromocodeExhausted) {
		t.Fatalf("a second use while the first hold lives: %v", err)
	}
	lapsed := first.HoldExpiresAt
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "ONCE", false, lapsed); used != 0 {
		t.Fatalf("%d uses once the hold lapsed, want 0", used)
	}
	third := limited("chk_third", "ONCE", 1)
	third.CreatedAt, third.HoldExpiresAt = lapsed, lapsed.Add(10*time.Minute)
	if _, _, err := repo.CreateCheckout(ctx, third); err != nil {
		t.Fatalf("the use of a lapsed hold was not given to the next buyer: %v", err)
	}
	// A paid checkout keeps its use after its hold lapsed.
	if _, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_third"}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.Held("ord_3", nil, lapsed)
		c.ApplyPayment(domain.PaymentEvent{Kind: domain.PaymentCompleted, Paid: true}, lapsed)
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "ONCE", false, third.HoldExpiresAt.Add(time.Hour)); used != 1 {
		t.Fatalf("%d uses of a paid checkout after its hold, want 1", used)
	}
}

// TestLatePaymentTakesAPromocodeUseOnlyIfOneIsLeft: a payment after its hold lapsed makes its
// checkout count among its promocode's uses again: with the code's one use taken meanwhile by
// another buyer, that change is refused (domain.ErrPromocodeExhausted) and nothing of it is
// kept; with a use left, the payment takes it.
func TestLatePaymentTakesAPromocodeUseOnlyIfOneIsLeft(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	held := func(c domain.Checkout) domain.Checkout {
		t.Helper()
		if _, _, err := repo.CreateCheckout(ctx, c); err != nil {
			t.Fatal(err)
		}
		if _, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: c.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
			c.Held("ord_"+c.ID, nil, c.CreatedAt)
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
		return c
	}
	pay := func(id string, at time.Time) error {
		_, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: id}}, func(c *domain.Checkout) ([]domain.Message, error) {
			return c.ApplyPayment(domain.PaymentEvent{Kind: domain.PaymentCompleted, Paid: true, PaymentIntent: "pi_" + id}, at), nil
		})
		return err
	}
	late := held(limited("chk_late", "ONCE", 1))
	lapsed := late.HoldExpiresAt
	other := limited("chk_other", "ONCE", 1)
	other.CreatedAt, other.HoldExpiresAt = lapsed, lapsed.Add(10*time.Minute)
	held(other)
	if err := pay("chk_late", lapsed.Add(time.Minute)); !errors.Is(err, domain.ErrPromocodeExhausted) {
		t.Fatalf("a late payment with the code's one use taken: %v", err)
	}
	if c, _ := repo.Checkout(ctx, app.CheckoutRef{ID: "chk_late"}); c.State != domain.StateHeld || c.PaymentIntent != "" {
		t.Fatalf("the refused change was kept: %s %s", c.State, c.PaymentIntent)
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "ONCE", false, lapsed.Add(time.Minute)); used != 1 {
		t.Fatalf("%d uses, want the other buyer's 1", used)
	}

	twice := held(limited("chk_twice", "TWICE", 2))
	second := limited("chk_second", "TWICE", 2)
	second.CreatedAt, second.HoldExpiresAt = twice.HoldExpiresAt, twice.HoldExpiresAt.Add(10*time.Minute)
	held(second)
	if err := pay("chk_twice", twice.HoldExpiresAt.Add(time.Minute)); err != nil {
		t.Fatalf("a late payment with a use left: %v", err)
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "TWICE", false, twice.HoldExpiresAt.Add(time.Minute)); used != 2 {
		t.Fatalf("%d uses, want 2", used)
	}
}

func TestCheckoutRoundTripAndUpdates(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
	c := newCheckout("chk_1", "CODE")
	if _, existed, err := repo.CreateCheckout(ctx, c); err != nil || existed {
		t.Fatal(existed, err)
	}
	again, existed, err := repo.CreateCheckout(ctx, newCheckout("chk_1", "CODE"))
	if err != nil || !existed || again.ID != "chk_1" || again.LegalSignature.SignerName != "Ana" || string(again.IPEnrichment) == "" {
		t.Fatalf("second create: %+v %v %v", again, existed, err)
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "CODE", false, again.CreatedAt); used != 1 {
		t.Fatalf("a resumed checkout counted its promocode twice: %d", used)
	}
	now := t0.Add(time.Minute)
	got, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_1"}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.Held("ord_1", nil, now)
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
	for i, want := range []app.Outcome{app.ChangeApplied, app.MessageAlreadyProcessed} {
		if _, outcome, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{OrderID: "ord_1"}, Consumer: "test", MessageID: "msg_1"}, release); err != nil || outcome != want {
			t.Fatalf("delivery %d: %v %v", i, outcome, err)
		}
	}
	if used, _ := repo.PromocodeUses(ctx, "evt_1", "CODE", false, now); used != 0 {
		t.Fatalf("counter %d after the release", used)
	}
	if _, outcome, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{OrderID: "ord_x"}, Consumer: "test", MessageID: "msg_2"}, release); err != nil || outcome != app.CheckoutNotKnown {
		t.Fatalf("unknown order: %v %v", outcome, err)
	}
	// A failing change rolls back: nothing recorded in the inbox.
	boom := errors.New("boom")
	if _, _, err := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_1"}, Consumer: "test", MessageID: "msg_3"}, func(*domain.Checkout) ([]domain.Message, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, outcome, _ := repo.Update(ctx, app.Update{Ref: app.CheckoutRef{ID: "chk_1"}, Consumer: "test", MessageID: "msg_3"}, release); outcome != app.ChangeApplied {
		t.Fatal("a failed message was recorded as processed")
	}
}

func TestIdempotencyRecords(t *testing.T) {
	repo := store.New(checkouttest.Pool(t))
	ctx := t.Context()
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
	if _, _, err := repo.CreateCheckout(ctx, newCheckout("chk_a", "")); err != nil {
		t.Fatal(err)
	}
	later := now.Add(2 * time.Minute)
	if id, ok, err := repo.TakeOverIdempotency(ctx, rec, "chk_b", later); err != nil || !ok || id != "chk_a" {
		t.Fatalf("take-over of a lapsed key: %s %v %v", id, ok, err)
	}
	// A failed attempt is retried under a new checkout.
	if err := repo.FailIdempotency(ctx, "key_1", false, "k-0000001", "chk_a"); err != nil {
		t.Fatal(err)
	}
	if id, ok, err := repo.TakeOverIdempotency(ctx, rec, "chk_c", now); err != nil || !ok || id != "chk_c" {
		t.Fatalf("take-over of a failed key: %s %v %v", id, ok, err)
	}
	got, found, err := repo.Idempotency(ctx, "key_1", false, "k-0000001")
	if err != nil || !found || got.State != domain.IdemRunning || got.CheckoutID != "chk_c" {
		t.Fatalf("record %+v %v %v", got, found, err)
	}
	if n, err := repo.DeleteExpiredIdempotency(ctx, now.Add(49*time.Hour)); err != nil || n != 1 {
		t.Fatalf("deleted %d (%v)", n, err)
	}
}
