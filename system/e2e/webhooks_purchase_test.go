package e2e

import (
	"slices"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// webhookOrder is the part of the Order object of order webhooks the tests read.
type webhookOrder struct {
	OrderID         string   `json:"orderId"`
	EventID         string   `json:"eventId"`
	Status          string   `json:"status"`
	Amount          int64    `json:"amount"`
	RegistrationIDs []string `json:"registrationIds"`
	TicketIDs       []string `json:"ticketIds"`
}

// webhookRegistration is the part of the Registration object of registration webhooks the
// tests read.
type webhookRegistration struct {
	RegistrationID string   `json:"registrationId"`
	OrderID        string   `json:"orderId"`
	EventID        string   `json:"eventId"`
	CancelledAt    *string  `json:"cancelledAt"`
	Tickets        []ticket `json:"tickets"`
}

// TestPurchaseAndCancelReachTheOrganizersEndpoint: a purchase on the browser API, paid by
// Stripe's signed checkout.session.completed, delivers registration.created and
// order.completed to the organizer's endpoint, each verified by the Standard Webhooks
// reference library and shaped as the document's webhooks section says, about the purchase's
// registration and order; the organizer's cancel then delivers registration.cancelled with a
// higher sequence for the same registration.
func TestPurchaseAndCancelReachTheOrganizersEndpoint(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	r, ep := startReceiver(t, s.secret.Key)

	a := s.open(t, s.purchase("Team Hooked"))
	s.wantOrder(t, a.OrderID, "ACTIVE", "PENDING")
	payload := stripeEvent(t, "checkout.session.completed", stripeSessionOf(t, s.org, a.OrderID), a.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	rows := searchRegistrations(t, s.secret.Key, map[string]any{"eventId": s.event.ID, "ticketStatus": "ALL"})
	if len(rows.Data) != 2 || rows.Data[0].Registration.RegistrationID == "" {
		t.Fatalf("the purchase's tickets %+v, want the pair's 2", rows)
	}
	regID := rows.Data[0].Registration.RegistrationID

	orderHook, completed := waitHook(t, r, "order.completed", a.OrderID)
	order := object[webhookOrder](t, completed)
	if order.OrderID != a.OrderID || order.Status != "COMPLETED" || order.EventID != s.event.ID || order.Amount != pairTotal ||
		!slices.Equal(order.RegistrationIDs, []string{regID}) || len(order.TicketIDs) != 2 || completed.Data.Sequence < 1 {
		t.Fatalf("order.completed %s, want order %s COMPLETED of %d with registration %s", orderHook.Body, a.OrderID, pairTotal, regID)
	}
	regHook, created := waitHook(t, r, "registration.created", regID)
	reg := object[webhookRegistration](t, created)
	if reg.RegistrationID != regID || reg.OrderID != a.OrderID || reg.EventID != s.event.ID || len(reg.Tickets) != 2 ||
		reg.CancelledAt != nil || created.Data.Sequence < 1 {
		t.Fatalf("registration.created %s, want registration %s of order %s", regHook.Body, regID, a.OrderID)
	}
	if regHook.ID == orderHook.ID {
		t.Fatalf("two events share webhook-id %s", regHook.ID)
	}
	// Each event is delivered once, to the one endpoint, by its own message.
	for _, typ := range []string{"registration.created", "order.completed"} {
		if n := countHooks(r.Webhooks(), typ); n != 1 {
			t.Fatalf("%d %s webhooks reached %s, want 1: %s", n, typ, ep.ID, received(r))
		}
	}

	res := send(t, req{"DELETE", gw("/organizer/registrations/" + reg.Tickets[0].TicketID), secret(s.secret.Key), nil})
	if res.status != 200 {
		t.Fatalf("cancel: %d %s", res.status, res.body)
	}
	cancelHook, cancelled := waitHook(t, r, "registration.cancelled", regID)
	gone := object[webhookRegistration](t, cancelled)
	if gone.RegistrationID != regID || gone.CancelledAt == nil || len(gone.Tickets) != 2 || gone.Tickets[0].Status != "CANCELLED" || gone.Tickets[1].Status != "CANCELLED" {
		t.Fatalf("registration.cancelled %s, want registration %s with its tickets cancelled", cancelHook.Body, regID)
	}
	if cancelled.Data.Sequence <= created.Data.Sequence {
		t.Fatalf("registration.cancelled has sequence %d, created %d: a receiver would drop the cancel as stale",
			cancelled.Data.Sequence, created.Data.Sequence)
	}
}

// countHooks counts the webhooks of type typ.
func countHooks(hooks []stack.Webhook, typ string) int {
	n := 0
	for _, w := range hooks {
		if w.Type == typ {
			n++
		}
	}
	return n
}
