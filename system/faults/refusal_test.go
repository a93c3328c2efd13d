package faults

import (
	"context"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// afterRefusal is how many more of the load's purchases are paid once Stripe refused the
// refund, so that order events keep arriving behind the refused one.
const afterRefusal = 20

// TestRefundRefusedForGood: a buyer's session expires unpaid and another buyer takes the event's
// last place; the first buyer's payment arrives anyway, so registration finds no place and
// checkout must refund it, and Stripe refuses that refund for good (400
// charge_already_refunded) while the load's payments keep arriving. Every paid purchase is
// confirmed once, and checkout applies every order event (each checkout COMPLETED): none waits
// behind the refused refund's. The refused refund is REFUND_FAILED with Stripe's code in
// checkout's database and listed by `checkout refunds list`; once Stripe accepts it again (it
// still gives the refusal again to the first attempt's idempotency key, as Stripe does), an
// operator's `checkout refunds retry` has it made (REFUNDED_NO_PLACE, the order REFUNDED).
func TestRefundRefusedForGood(t *testing.T) {
	s := newShop(t, 0)
	one := s.otherEvent(t, "faults-one-place", 1)
	ctx := t.Context()
	var tl tally
	var g gateways
	late, first := one.newPurchase(), one.newPurchase()
	if a := one.open(ctx, &g, &tl, late); a.status != 201 {
		t.Fatalf("the late buyer's session: %v", a)
	}
	deliver(t, &g, &tl, expiredEvent)(late)
	testkit.Eventually(t, time.Minute, orderIs(ctx, late.orderID, "CANCELLED"))
	if a := one.open(ctx, &g, &tl, first); a.status != 201 || !one.pay(ctx, t, &g, &tl, first) {
		t.Fatalf("the buyer of the last place: %v", a)
	}

	sys.RefuseStripe(func(c stack.StripeCall) (stack.StripeError, bool) {
		return stack.StripeError{Status: 400, Type: "invalid_request_error", Code: "charge_already_refunded", Message: "Charge ch_faults has already been refunded."},
			c.Method == "POST" && c.Path == "/v1/refunds" && c.Metadata("orderId") == late.orderID
	})
	defer sys.RefuseStripe(nil)
	l := startLoad(t, s)
	testkit.Eventually(t, time.Minute, func() string { return unless(l.sent() >= 5, "the load paid %d purchases", l.sent()) })
	deliver(t, &g, &tl, paidEvent)(late)
	testkit.Eventually(t, 2*time.Minute, checkoutIs(ctx, late.orderID, "REFUND_FAILED"))
	refusedAt := l.sent()
	testkit.Eventually(t, 3*time.Minute, func() string {
		return unless(l.sent() >= refusedAt+afterRefusal, "%d purchases paid since the refusal", l.sent()-refusedAt)
	})
	paid := l.stopLoad()
	c := s.settle(t, paid, 2*time.Minute)
	mergeTally(&tl, &l.tally)
	o, err := one.outcome([]*purchase{first})
	if err != nil {
		t.Fatal(err)
	}
	c.sent, c.confirmed, c.lost, c.doubled = c.sent+o.sent, c.confirmed+o.confirmed, c.lost+o.lost, c.doubled+o.doubled
	paidOrders := make([]string, 0, len(paid)+1) // the load's and the last place's
	for _, p := range append(paid, first) {
		paidOrders = append(paidOrders, p.orderID)
	}
	testkit.Eventually(t, 2*time.Minute, func() string { // none waits behind the refused refund's order event
		var n int
		err := scanRow(ctx, "checkout", `SELECT count(*) FROM checkouts WHERE order_id = ANY($1) AND state = 'COMPLETED'`, []any{paidOrders}, &n)
		return unless(err == nil && n == len(paidOrders), "%d of %d paid purchases' checkouts COMPLETED (%v): order events were held back", n, len(paidOrders), err)
	})
	report(t, "refund-refused", c, &tl)

	refused, err := sys.CheckoutRefunds(ctx, "list")
	if err != nil || len(refused) != 1 || refused[0]["orderId"] != late.orderID || refused[0]["code"] != "charge_already_refunded" {
		t.Fatalf("refunds listed: %v %v, want the late payment's, refused with charge_already_refunded", refused, err)
	}
	sys.RefuseStripe(nil) // the cause fixed; Stripe still gives the refusal again to its idempotency key
	if _, err := sys.CheckoutRefunds(ctx, "retry", refused[0]["checkoutId"].(string)); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, time.Minute, checkoutIs(ctx, late.orderID, "REFUNDED_NO_PLACE"))
	testkit.Eventually(t, time.Minute, orderIs(ctx, late.orderID, "REFUNDED"))
	t.Logf("FAULTS %-20s refund-failed=1 code=%s checkouts-completed=%d/%d refunded-after-retry=1",
		"refund-refused", refused[0]["code"], len(paidOrders), len(paidOrders))
}

// deliver returns a function that delivers the event event builds for a purchase as Stripe
// does, again after a 5xx or no answer, and fails the test unless it is acknowledged.
func deliver(t *testing.T, g *gateways, tl *tally, event func(testing.TB, *purchase) (string, []byte)) func(*purchase) {
	return func(p *purchase) {
		_, payload := event(t, p)
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		if a := g.retrying(ctx, tl, webhookRequest(payload, sys.WebhookSecret, time.Now()), redeliverable); a.status != 200 {
			t.Fatalf("webhook of order %s: %v", p.orderID, a)
		}
	}
}

// orderIs is a testkit.Eventually check that an order's status in registration's database is want.
func orderIs(ctx context.Context, orderID, want string) func() string {
	return func() string {
		var status string
		err := scanRow(ctx, "registration", `SELECT status FROM orders WHERE id = $1`, []any{orderID}, &status)
		return unless(err == nil && status == want, "order %s is %s (%v), want %s", orderID, status, err, want)
	}
}

// checkoutIs is a testkit.Eventually check that the checkout of an order is in state want.
func checkoutIs(ctx context.Context, orderID, want string) func() string {
	return func() string {
		state, err := sys.CheckoutState(ctx, orderID)
		return unless(err == nil && state == want, "checkout of order %s is %s (%v), want %s", orderID, state, err, want)
	}
}
