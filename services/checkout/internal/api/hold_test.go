package api_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestHoldsAreCappedPerClientNetwork: the hold names the network of the buyer's address (an
// IPv6 address's /64), and registration's refusal of a hold over the caps on unpaid places
// comes back as 429 with its Retry-After: the checkout fails, its promocode use is given back
// and nothing reaches Stripe.
func TestHoldsAreCappedPerClientNetwork(t *testing.T) {
	env := start(t, checkouttest.Options{})
	r := env.BrowserFrom(t, "session", checkouttest.Purchase(), checkouttest.KeyID, "2001:db8:5:6:a:b:c:d")
	if r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	if o, _ := env.Registration.Order(r.Body["orderId"].(string)); o.Body["clientNetwork"] != "2001:db8:5:6::/64" {
		t.Fatalf("the hold names client network %v", o.Body["clientNetwork"])
	}
	const refusal = "33 places of this event are already held from this address and not paid for (at most 33 at once)"
	env.Registration.LimitNext(refusal, 420)
	b := checkouttest.Purchase()
	b["promocode"], b["idempotencyKey"] = "ONCE", "capped-0001"
	limited := env.BrowserFrom(t, "session", b, checkouttest.KeyID, "2001:db8:5:6::1")
	wantError(t, limited, http.StatusTooManyRequests, refusal)
	if ra := limited.Header.Get("Retry-After"); ra != "420" {
		t.Fatalf("Retry-After %q, want registration's 420", ra)
	}
	failed := count(t, env, `SELECT count(*) FROM checkouts WHERE state = 'FAILED' AND promocode_state = 'RELEASED'`)
	if failed != 1 || uses(t, env, "ONCE") != 0 || env.Stripe.Hits(checkouttest.RouteSessions) != 1 {
		t.Fatalf("%d failed checkouts, %d promocode uses, %d Stripe sessions; want 1, 0 and the first purchase's 1",
			failed, uses(t, env, "ONCE"), env.Stripe.Hits(checkouttest.RouteSessions))
	}
	// Once registration admits it, the same purchase goes through with the code.
	if r := env.BrowserFrom(t, "session", b, checkouttest.KeyID, "2001:db8:5:6::1"); r.Status != http.StatusCreated || uses(t, env, "ONCE") != 1 {
		t.Fatalf("retry: %d %s (uses %d)", r.Status, r.Raw, uses(t, env, "ONCE"))
	}
}

// TestSessionExpiresBeforeALongHold: with a hold longer than Stripe's shortest session, the
// session expires PaymentGrace (4 minutes) before the hold, so a payment at its last second
// still finds the hold.
func TestSessionExpiresBeforeALongHold(t *testing.T) {
	env := start(t, checkouttest.Options{HoldTTL: 2 * time.Hour})
	r := session(t, env, checkouttest.Purchase())
	if r.Status != http.StatusCreated {
		t.Fatalf("session: %d %s", r.Status, r.Raw)
	}
	o, _ := env.Registration.Order(r.Body["orderId"].(string))
	hold, _ := time.Parse(time.RFC3339, o.Body["expiresAt"].(string))
	stripeExp, _ := strconv.ParseInt(env.Stripe.Last(checkouttest.RouteSessions).Get("expires_at"), 10, 64)
	if got := time.Unix(stripeExp, 0).Sub(hold.Truncate(time.Second)); got != -4*time.Minute {
		t.Fatalf("the Stripe session expires %s after the hold, want 4 minutes before", got)
	}
}

// TestPaymentAfterAShortHoldLapsed: the 10-minute hold lapses while its Stripe session (35
// minutes) is still open; registration releases the order, and a payment 20 minutes in takes
// the late-payment path: the checkout is PAID, counts its promocode use again and tells
// registration, which confirms the order if a place is left; if none is, the payment is
// refunded.
func TestPaymentAfterAShortHoldLapsed(t *testing.T) {
	env := start(t, checkouttest.Options{Kafka: true})
	events := payments(t, env)
	s := opened(t, env, "ONCE")
	var holdExp, sessionExp time.Time
	if err := env.Pool.QueryRow(t.Context(), `SELECT hold_expires_at, session_expires_at FROM checkouts WHERE id = $1`, s.CheckoutID).Scan(&holdExp, &sessionExp); err != nil {
		t.Fatal(err)
	}
	if d := sessionExp.Sub(holdExp); d < 24*time.Minute || d > 25*time.Minute {
		t.Fatalf("the session outlives the hold by %s, want 25 minutes", d)
	}
	env.Clock.Advance(10*time.Minute + time.Second)
	publishOrderEvent(t, env, "msg_lapsed", domain.EventOrderReleased, map[string]any{"orderId": s.OrderID, "reason": "EXPIRED", "releasedAt": env.Clock.Now()})
	eventually(t, env, s.CheckoutID, "RELEASED")
	if uses(t, env, "ONCE") != 0 {
		t.Fatal("a lapsed hold kept its promocode use")
	}
	env.Clock.Advance(10 * time.Minute)
	wantWebhook(t, env.SignedWebhook(t, stripeEvent(t, "checkout.session.completed", s, true), time.Now()), "applied")
	if st, p := state(t, env, s.CheckoutID); st != "PAID" || p != "RESERVED" || uses(t, env, "ONCE") != 1 {
		t.Fatalf("late payment: %s, promocode %s, uses %d", st, p, uses(t, env, "ONCE"))
	}
	if m := next(t, events); m.Headers[broker.HeaderType] != domain.EventPaymentSucceeded || m.Key != s.OrderID {
		t.Fatalf("late payment message %v", m.Headers)
	}
	publishOrderEvent(t, env, "msg_no_place", domain.EventOrderUnfulfillable, map[string]any{"orderId": s.OrderID, "reason": "NO_PLACE_LEFT", "paymentRef": "pi_test_1"})
	eventually(t, env, s.CheckoutID, "REFUNDED_NO_PLACE")
	if n := env.Stripe.Hits(checkouttest.RouteRefunds); n != 1 || uses(t, env, "ONCE") != 0 {
		t.Fatalf("%d refunds, %d promocode uses after no place was left", n, uses(t, env, "ONCE"))
	}
}

// TestHoldWhoseAnswerIsLostIsReleased: registration holds the places but its answer never
// arrives (checkout gives up at its peer timeout, answering 503 with Retry-After). Checkout chose the hold id (its checkout
// id) before the call, so it releases that hold id: the order is cancelled and its place
// given back, the checkout fails, Stripe is never asked, and the next purchase takes the one
// place left. A refusal, which held nothing, is not released.
func TestHoldWhoseAnswerIsLostIsReleased(t *testing.T) {
	env := start(t, checkouttest.Options{PeerTimeout: 300 * time.Millisecond})
	env.Registration.SetQuota(checkouttest.CatRX, 1)
	env.Registration.LoseNextAnswer()
	b := checkouttest.Purchase()
	b["promocode"] = "ONCE"
	r := session(t, env, b)
	wantError(t, r, http.StatusServiceUnavailable, "the request did not complete in time; retry after the Retry-After seconds")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	lost, _ := env.Registration.LastOrder()
	if lost.Status != "CANCELLED" || lost.HoldID == "" || env.Registration.Held(checkouttest.CatRX) != 0 || env.Registration.Releases.Load() != 1 {
		t.Fatalf("the lost hold %+v after checkout gave up: %d places held, %d releases; want it CANCELLED by its hold id, none held",
			lost, env.Registration.Held(checkouttest.CatRX), env.Registration.Releases.Load())
	}
	if st, p := state(t, env, lost.HoldID); st != "FAILED" || p != "RELEASED" || env.Stripe.Hits(checkouttest.RouteSessions) != 0 {
		t.Fatalf("checkout %s (promocode %s), %d Stripe sessions; want FAILED, RELEASED, none", st, p, env.Stripe.Hits(checkouttest.RouteSessions))
	}
	if r := session(t, env, b); r.Status != http.StatusCreated || env.Registration.Held(checkouttest.CatRX) != 1 {
		t.Fatalf("the next purchase: %d %s", r.Status, r.Raw)
	}
	wantError(t, session(t, env, checkouttest.Purchase()), http.StatusConflict, "category cat_rx has no places left")
	if n := env.Registration.Releases.Load(); n != 1 {
		t.Fatalf("%d releases, want only the lost hold's: a refusal holds nothing", n)
	}
}
