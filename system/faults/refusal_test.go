package faults

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
// checkout's database and listed by `checkout refunds list`; once Stripe accepts it again, an
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
	waitFor(t, time.Minute, orderIs(late.orderID, "CANCELLED"))
	if a := one.open(ctx, &g, &tl, first); a.status != 201 || !one.pay(ctx, t, &g, &tl, first) {
		t.Fatalf("the buyer of the last place: %v", a)
	}

	sys.RefuseStripe(func(c stack.StripeCall) (stack.StripeError, bool) {
		return stack.StripeError{Status: 400, Type: "invalid_request_error", Code: "charge_already_refunded", Message: "Charge ch_faults has already been refunded."},
			c.Method == "POST" && c.Path == "/v1/refunds" && c.Metadata("orderId") == late.orderID
	})
	defer sys.RefuseStripe(nil)
	l := startLoad(t, s)
	waitFor(t, time.Minute, func() string { return unless(l.sent() >= 5, "the load paid %d purchases", l.sent()) })
	deliver(t, &g, &tl, paidEvent)(late)
	waitFor(t, 2*time.Minute, checkoutIs(late.orderID, "REFUND_FAILED"))
	refusedAt := l.sent()
	waitFor(t, 3*time.Minute, func() string {
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
	completed := waitCompleted(t, append(paid, first), 2*time.Minute) // the load's and the last place's
	report(t, "refund-refused", c, &tl)

	refused, err := sys.CheckoutRefunds(ctx, "list")
	if err != nil || len(refused) != 1 || refused[0]["orderId"] != late.orderID || refused[0]["code"] != "charge_already_refunded" {
		t.Fatalf("refunds listed: %v %v, want the late payment's, refused with charge_already_refunded", refused, err)
	}
	sys.RefuseStripe(nil)
	if _, err := sys.CheckoutRefunds(ctx, "retry", refused[0]["checkoutId"].(string)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, checkoutIs(late.orderID, "REFUNDED_NO_PLACE"))
	waitFor(t, time.Minute, orderIs(late.orderID, "REFUNDED"))
	t.Logf("FAULTS %-20s refund-failed=1 code=%s checkouts-completed=%d/%d refunded-after-retry=1",
		"refund-refused", refused[0]["code"], completed, len(paid)+1)
	if completed != len(paid)+1 {
		t.Errorf("%d of %d paid purchases' checkouts COMPLETED: order events were held back", completed, len(paid)+1)
	}
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

// orderIs is a waitFor check that an order's status in registration's database is want.
func orderIs(orderID, want string) func() string {
	return func() string {
		var status string
		err := queryRow("registration", `SELECT status FROM orders WHERE id = $1`, []any{orderID}, &status)
		return unless(err == nil && status == want, "order %s is %s (%v), want %s", orderID, status, err, want)
	}
}

// checkoutIs is a waitFor check that the checkout of an order is in state want in checkout's
// database.
func checkoutIs(orderID, want string) func() string {
	return func() string {
		var state string
		err := queryRow("checkout", `SELECT state FROM checkouts WHERE order_id = $1`, []any{orderID}, &state)
		return unless(err == nil && state == want, "checkout of order %s is %s (%v), want %s", orderID, state, err, want)
	}
}

// waitCompleted waits up to wait for the checkouts of the purchases to be COMPLETED (checkout
// applied registration's order.completed) and returns how many are.
func waitCompleted(t *testing.T, paid []*purchase, wait time.Duration) int {
	t.Helper()
	ids := make([]string, len(paid))
	for i, p := range paid {
		ids[i] = p.orderID
	}
	deadline := time.Now().Add(wait)
	for {
		var n int
		if err := queryRow("checkout", `SELECT count(*) FROM checkouts WHERE order_id = ANY($1) AND state = 'COMPLETED'`, []any{ids}, &n); err != nil {
			t.Fatal(err)
		}
		if n == len(paid) || time.Now().After(deadline) {
			return n
		}
		<-time.After(250 * time.Millisecond)
	}
}

// queryRow reads one row of a service's own database directly (not through the links a
// scenario breaks) into dest.
func queryRow(svc, query string, args []any, dest ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, sys.DatabaseURL(svc))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, query, args...).Scan(dest...); err != nil {
		return fmt.Errorf("%s: %w", svc, err)
	}
	return nil
}
