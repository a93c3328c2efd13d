package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// refundView is the part of a refund the tests read.
type refundView struct {
	ID       string `json:"id"`
	OrderID  string `json:"orderId"`
	Amount   int64  `json:"amount"`
	Status   string `json:"status"`
	Livemode bool   `json:"livemode"`
}

// refundedOrder is the part of the order of an order.refunded webhook the tests read.
type refundedOrder struct {
	OrderID        string `json:"orderId"`
	Status         string `json:"status"`
	AmountRefunded int64  `json:"amountRefunded"`
}

var refundKeys atomic.Int64

// askRefund posts a refund with key and a fresh Idempotency-Key.
func askRefund(t testing.TB, key string, body map[string]any) response {
	t.Helper()
	h := secret(key)
	h["Idempotency-Key"] = "e2e-refund-" + strconv.FormatInt(refundKeys.Add(1), 10) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	res := send(t, req{"POST", gw("/organizer/refunds"), h, body})
	conforms(t, "organizerCreateRefund", res)
	return res
}

// decodeRefund reads a 202 refund answer.
func decodeRefund(t testing.TB, res response) refundView {
	t.Helper()
	var r refundView
	if res.status != 202 || json.Unmarshal(res.body, &r) != nil || r.Status != "pending" {
		t.Fatalf("refund: %d %s, want 202 pending", res.status, res.body)
	}
	return r
}

// wantRefund waits until the refund id reads status.
func wantRefund(t *testing.T, key, id, status string) refundView {
	t.Helper()
	var r refundView
	testkit.Eventually(t, eventTravel, func() string {
		res := send(t, req{"GET", gw("/organizer/refunds/" + id), secret(key), nil})
		conforms(t, "organizerGetRefund", res)
		if res.status != 200 || json.Unmarshal(res.body, &r) != nil || r.Status != status {
			return fmt.Sprintf("refund %s: %d %s, want %s", id, res.status, res.body, status)
		}
		return ""
	})
	return r
}

// paidPurchase buys a pair in the shop and pays it through Stripe's signed webhook.
func (s *shop) paidPurchase(t *testing.T, team string) sessionAnswer {
	t.Helper()
	a := s.open(t, s.purchase(team))
	payload := stripeEvent(t, "checkout.session.completed", stripeSessionOf(t, s.org, a.OrderID), a.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	return a
}

// TestRefundsThroughTheGateway: a partial refund of a paid order is made by Stripe and leaves
// the order COMPLETED with its amount refunded; the refund of the rest with cancelTickets
// makes it REFUNDED, cancels its tickets and frees its place in the pricing card; each sends
// order.refunded; the order's refunds are listed; Stripe is asked once per refund, for its
// amount. Refused: a key without refunds:write (403), another organizer's order (404), more
// than is left (409 refund_exceeds_paid), an order not paid (409 order_not_paid).
func TestRefundsThroughTheGateway(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	r, _ := startReceiver(t, s.secret.Key)
	a := s.paidPurchase(t, "Team Refunded")
	s.wantPlaces(t, 1, 0)

	noScope := newKey(t, s.org, stack.KeySpec{Type: "secret", Scopes: []string{"registrations:read", "registrations:write"}})
	wantCode(t, askRefund(t, noScope.Key, map[string]any{"orderId": a.OrderID, "reason": "r"}), 403, "scope_missing")
	other := newTenant(t)
	wantCode(t, askRefund(t, other.secret.Key, map[string]any{"orderId": a.OrderID, "reason": "r"}), 404, "not_found")
	wantCode(t, askRefund(t, s.secret.Key, map[string]any{"orderId": a.OrderID, "amount": pairTotal + 1, "reason": "r"}), 409, "refund_exceeds_paid")
	unpaid := s.open(t, s.purchase("Team Unpaid"))
	wantCode(t, askRefund(t, s.secret.Key, map[string]any{"orderId": unpaid.OrderID, "reason": "r"}), 409, "order_not_paid")

	partial := decodeRefund(t, askRefund(t, s.secret.Key, map[string]any{"orderId": a.OrderID, "amount": 1000, "reason": "goodwill"}))
	wantRefund(t, s.secret.Key, partial.ID, "succeeded")
	_, h := waitFor(t, r, "order.refunded of the partial refund", func(w stack.Webhook, b hook) bool {
		return w.Type == "order.refunded" && b.Data.ObjectID == a.OrderID
	})
	if o := object[refundedOrder](t, h); o.Status != "COMPLETED" || o.AmountRefunded != 1000 {
		t.Fatalf("order.refunded after a partial refund: %+v, want COMPLETED with 1000 refunded", o)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")

	rest := decodeRefund(t, askRefund(t, s.secret.Key, map[string]any{"orderId": a.OrderID, "reason": "event cancelled", "cancelTickets": true}))
	if rest.Amount != pairTotal-1000 {
		t.Fatalf("the rest: %d, want %d", rest.Amount, pairTotal-1000)
	}
	wantRefund(t, s.secret.Key, rest.ID, "succeeded")
	s.wantOrder(t, a.OrderID, "CANCELLED", "REFUNDED")
	s.wantPlaces(t, 0, 1) // the refunded order's place is free; the unpaid order still holds its own
	_, h = waitFor(t, r, "order.refunded of the whole payment", func(w stack.Webhook, b hook) bool {
		return w.Type == "order.refunded" && b.Data.ObjectID == a.OrderID && object[refundedOrder](t, b).Status == "REFUNDED"
	})
	if o := object[refundedOrder](t, h); o.AmountRefunded != pairTotal {
		t.Fatalf("order.refunded of the whole payment: %+v", o)
	}

	list := send(t, req{"GET", gw("/organizer/refunds?orderId=" + a.OrderID), secret(s.secret.Key), nil})
	conforms(t, "organizerListRefunds", list)
	var page struct {
		Data  []refundView `json:"data"`
		Total int          `json:"total"`
	}
	if list.status != 200 || json.Unmarshal(list.body, &page) != nil || page.Total != 2 || page.Data[0].ID != partial.ID || page.Data[1].ID != rest.ID {
		t.Fatalf("list: %d %s", list.status, list.body)
	}
	calls := sys.StripeCalls("POST", "/v1/refunds", s.org)
	if len(calls) != 2 || calls[0].Form.Get("amount") != "1000" || calls[1].Form.Get("amount") != strconv.Itoa(pairTotal-1000) {
		t.Fatalf("Stripe was asked %d refunds: %+v", len(calls), calls)
	}
}

// TestConcurrentPartialRefundsNeverExceedWhatWasPaid: 20 refunds of 1000 of one order of 9450
// sent at once through the gateway: 9 are accepted and made, 11 refused with 409
// refund_exceeds_paid; what was accepted never exceeds what was paid, and Stripe is asked for
// exactly the accepted ones.
func TestConcurrentPartialRefundsNeverExceedWhatWasPaid(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.paidPurchase(t, "Team Rush")
	var mu sync.Mutex
	var accepted []refundView
	refusals := map[string]int{}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := askRefund(t, s.secret.Key, map[string]any{"orderId": a.OrderID, "amount": 1000, "reason": "rush"})
			mu.Lock()
			defer mu.Unlock()
			var b struct {
				Code string `json:"code"`
			}
			switch {
			case res.status == 202:
				var r refundView
				_ = json.Unmarshal(res.body, &r)
				accepted = append(accepted, r)
			case json.Unmarshal(res.body, &b) == nil:
				refusals[fmt.Sprint(res.status, " ", b.Code)]++
			}
		}()
	}
	wg.Wait()
	var sum int64
	for _, r := range accepted {
		sum += r.Amount
	}
	if sum > pairTotal || len(accepted) != 9 || refusals["409 refund_exceeds_paid"] != 11 || len(refusals) != 1 {
		t.Fatalf("%d accepted for %d of %d paid, refusals %v; want 9 and 11 refund_exceeds_paid", len(accepted), sum, pairTotal, refusals)
	}
	for _, r := range accepted {
		wantRefund(t, s.secret.Key, r.ID, "succeeded")
	}
	if n := len(sys.StripeCalls("POST", "/v1/refunds", s.org)); n != 9 {
		t.Fatalf("Stripe was asked %d refunds, want 9", n)
	}
}

// TestARefundOfATicketReturnsItsShare: one ticket of a paid pair is refunded with cancelTickets:
// its share is half of what the pair's registration cost (the price and its per-registration
// fee), the order stays COMPLETED, the pair's registration (one place) is cancelled and its
// place freed; the same ticket again is refused with 409 ticket_already_refunded.
func TestARefundOfATicketReturnsItsShare(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.paidPurchase(t, "Team Half")
	s.wantPlaces(t, 1, 0)
	var ticket string
	rows, _ := s.tickets(t, map[string]any{"ticketStatus": "ALL"})
	for _, r := range rows {
		if r.Order.OrderID == a.OrderID {
			ticket = r.Ticket.TicketID
		}
	}
	body := map[string]any{"ticketIds": []string{ticket}, "reason": "injured", "cancelTickets": true}
	r := decodeRefund(t, askRefund(t, s.secret.Key, body))
	if r.OrderID != a.OrderID || r.Amount != pairTotal/2 {
		t.Fatalf("refund of a ticket: %+v, want %d of order %s", r, pairTotal/2, a.OrderID)
	}
	wantRefund(t, s.secret.Key, r.ID, "succeeded")
	s.wantOrder(t, a.OrderID, "CANCELLED", "COMPLETED")
	s.wantPlaces(t, 0, 0)
	wantCode(t, askRefund(t, s.secret.Key, body), 409, "ticket_already_refunded")
}
