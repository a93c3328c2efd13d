package api_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/registration/internal/app"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// refunded applies checkout's refund.succeeded of an order as the payments consumer does.
func refunded(t *testing.T, env *regtest.Env, msgID string, r domain.RefundMade) {
	t.Helper()
	if err := env.Service.ApplyPayment(t.Context(), app.Payment{MessageID: msgID, Type: domain.EventRefundSucceeded, OrderID: r.OrderID, Refund: r}); err != nil {
		t.Fatal(err)
	}
}

// TestOrganizerRefundsMarkTheOrderAndFreeThePlaces: a partial refund naming a ticket to cancel
// cancels its registration (its place freed) and leaves the order COMPLETED with the amount
// refunded; the refund of the rest makes it REFUNDED while its other registration keeps its
// place; each publishes order.refunded; a redelivery changes nothing.
func TestOrganizerRefundsMarkTheOrderAndFreeThePlaces(t *testing.T) {
	env := start(t, regtest.Options{})
	tok := env.Browser(t, orgA)
	hold := env.Do(t, "POST", "/internal/holds", holdBody("refund-org-1", env.Clock.Now().Add(time.Hour), holdReg("Ana"), holdReg("Bea")), tok)
	order := hold.Body["orderId"].(string)
	regs := hold.Body["registrations"].([]any)
	ana := regs[0].(map[string]any)["ticketIds"].([]any)[0].(string)
	pay(t, env, order, "pi_1", 6500)
	if c, _ := places(t, env, "cat_rx"); c != 2 {
		t.Fatalf("%d places confirmed, want 2", c)
	}
	for range 2 {
		refunded(t, env, "refund-ana", domain.RefundMade{OrderID: order, AmountRefunded: 3250, TicketIDs: []string{ana}, CancelTickets: true})
	}
	var amount int64
	var anaStatus string
	if err := env.Pool.QueryRow(t.Context(), `SELECT o.amount_refunded, t.status FROM orders o JOIN tickets t ON t.order_id = o.id WHERE o.id = $1 AND t.id = $2`, order, ana).Scan(&amount, &anaStatus); err != nil {
		t.Fatal(err)
	}
	if s := orderStatus(t, env, order); s != "COMPLETED" || amount != 3250 || anaStatus != "CANCELLED" {
		t.Fatalf("after a partial refund: order %s refunded %d, ticket %s; want COMPLETED 3250 CANCELLED", s, amount, anaStatus)
	}
	if c, _ := places(t, env, "cat_rx"); c != 1 {
		t.Fatalf("%d places confirmed after cancelling one, want 1", c)
	}
	refunded(t, env, "refund-rest", domain.RefundMade{OrderID: order, AmountRefunded: 6500, OrderRefunded: true})
	if s := orderStatus(t, env, order); s != "REFUNDED" {
		t.Fatalf("after the whole payment was refunded: %s", s)
	}
	if c, _ := places(t, env, "cat_rx"); c != 1 {
		t.Fatalf("%d places confirmed: the refunded order's live registration keeps its place", c)
	}
	var events int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM outbox WHERE key = $1 AND headers->>'ce_type' = $2`, order, domain.EventOrderRefunded).Scan(&events); err != nil || events != 2 {
		t.Fatalf("%d order.refunded (%v), want 2", events, err)
	}
}
