package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// stripeOutage is how long checkout cannot reach Stripe.
const stripeOutage = 60 * time.Second

// refundsAsked is how many paid orders are refunded while Stripe is unreachable.
const refundsAsked = 10

// TestStripeUnreachableWhileRefunding: Stripe is unreachable (the link between checkout and
// Stripe cut) for 60 s while an organizer refunds 10 paid orders in full, each request sent
// twice with its Idempotency-Key (a client's retry). Every request is answered 202 at once
// (nothing waits on Stripe), the retry with the first's refund; the refunds stay pending with
// the failure shown while Stripe is away, and once it is back each is made exactly once: one
// refund per order in checkout's records, succeeded, one refund request reaching Stripe per
// refund, every order REFUNDED in registration.
func TestStripeUnreachableWhileRefunding(t *testing.T) {
	s := newShop(t, 0)
	ctx := t.Context()
	var tl tally
	var g gateways
	paid := make([]*purchase, 0, refundsAsked)
	for range refundsAsked {
		p := s.newPurchase()
		if a := s.open(ctx, &g, &tl, p); a.status != 201 || !s.pay(ctx, t, &g, &tl, p) {
			t.Fatalf("purchase: %v", a)
		}
		paid = append(paid, p)
	}
	for _, p := range paid {
		testkit.Eventually(t, time.Minute, checkoutIs(ctx, p.orderID, "COMPLETED"))
	}
	if err := sys.Cut(stack.StripeLink); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	refunds := map[string]string{} // order id → refund id
	for _, p := range paid {
		id := ""
		for range 2 { // the request and a client's retry with its key
			a := g.retrying(ctx, &tl, s.refundRequest(p), answer.retryable)
			var r struct {
				ID string `json:"id"`
			}
			if a.status != 202 || decode(a, &r) != nil || (id != "" && r.ID != id) {
				t.Fatalf("refund of %s while Stripe is unreachable: %v (first answer's refund %q)", p.orderID, a, id)
			}
			id = r.ID
		}
		refunds[p.orderID] = id
	}
	testkit.Eventually(t, stripeOutage, func() string {
		var n int
		err := scanRow(ctx, "checkout", `SELECT count(*) FROM refunds WHERE organizer_id = $1 AND state = 'pending' AND failure_message IS NOT NULL`, []any{s.org}, &n)
		return unless(err == nil && n == refundsAsked, "%d refunds pending with Stripe's failure shown (%v), want %d", n, err, refundsAsked)
	})
	<-time.After(time.Until(cut.Add(stripeOutage)))
	if err := sys.Restore(stack.StripeLink); err != nil {
		t.Fatal(err)
	}
	restored := time.Now()
	testkit.Eventually(t, 3*time.Minute, func() string {
		var n int
		err := scanRow(ctx, "checkout", `SELECT count(*) FROM refunds WHERE organizer_id = $1 AND state = 'succeeded'`, []any{s.org}, &n)
		return unless(err == nil && n == refundsAsked, "%d refunds succeeded (%v), want %d", n, err, refundsAsked)
	})
	made := time.Since(restored)
	for _, p := range paid {
		testkit.Eventually(t, time.Minute, orderIs(ctx, p.orderID, "REFUNDED"))
	}
	lost, doubled := refundOutcome(ctx, t, s, refunds)
	t.Logf("FAULTS %-20s sent=%d succeeded=%d lost=%d doubled=%d 5xx=%d retried=%d made %s after Stripe came back",
		"stripe-down-refunds", refundsAsked, refundsAsked-lost, lost, doubled, tl.fiveXX.Load(), tl.retries.Load(), made.Round(time.Second))
	if lost != 0 || doubled != 0 || tl.failed.Load() != 0 {
		t.Errorf("%d refunds lost, %d doubled, %d requests failed (%v); want none", lost, doubled, tl.failed.Load(), tl.failures)
	}
}

// refundRequest is the organizer's refund of p's order in full, with an Idempotency-Key of
// its own.
func (s *shop) refundRequest(p *purchase) request {
	body, _ := json.Marshal(map[string]any{"orderId": p.orderID, "reason": "Stripe outage drill", "cancelTickets": true})
	return request{method: "POST", path: "/external/v1/organizer/refunds", body: body,
		headers: map[string]string{"Authorization": "Bearer " + s.secret.Key, "Idempotency-Key": "faults-refund-" + p.key}}
}

// refundOutcome counts the refunds lost (an order without exactly one succeeded refund in
// checkout's records, or the one the organizer was answered) and doubled (an order with more
// than one refund recorded, or a refund Stripe was asked to make more than once, or made for
// more than the order paid).
func refundOutcome(ctx context.Context, t *testing.T, s *shop, refunds map[string]string) (lost, doubled int) {
	t.Helper()
	asked := map[string]int{}
	for _, c := range sys.StripeCalls("POST", "/v1/refunds", s.org) {
		asked[c.Metadata("refundId")]++
	}
	for orderID, refundID := range refunds {
		var n, succeeded int
		var amount, paid int64
		err := scanRow(ctx, "checkout", `SELECT count(*), count(*) FILTER (WHERE state = 'succeeded' AND id = $2),
			coalesce(sum(amount), 0), (SELECT amount_paid FROM checkouts WHERE order_id = $1 ORDER BY created_at DESC LIMIT 1)
			FROM refunds WHERE order_id = $1`, []any{orderID, refundID}, &n, &succeeded, &amount, &paid)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case n > 1 || asked[refundID] > 1 || amount > paid:
			doubled++
			t.Logf("order %s: %d refunds recorded for %d of %d paid, Stripe asked %d times for %s", orderID, n, amount, paid, asked[refundID], refundID)
		case succeeded != 1 || asked[refundID] != 1:
			lost++
			t.Logf("order %s: refund %s %s", orderID, refundID, fmt.Sprintf("succeeded=%d asked=%d", succeeded, asked[refundID]))
		}
	}
	return lost, doubled
}
