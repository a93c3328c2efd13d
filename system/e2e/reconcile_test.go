package e2e

import (
	"encoding/json"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestReconciliationConfirmsAPaymentWhoseWebhookNeverArrived: a buyer pays, and Stripe's
// webhook never reaches the system. Checkout's reconciler (every second in this suite) lists
// the session, paid, from Stripe and settles it through the webhook's path: registration
// confirms the order, the place is counted, the settlement is counted in checkout's metrics,
// and the webhook that arrives at last is a duplicate that changes nothing.
func TestReconciliationConfirmsAPaymentWhoseWebhookNeverArrived(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	before := metricTotal(t, sys.URLs["checkout"], "checkout_reconcile_settled", `outcome="paid"`)
	a := s.open(t, s.purchase("Team Unheard"))
	s.wantOrder(t, a.OrderID, "ACTIVE", "PENDING")
	call := stripeSessionOf(t, s.org, a.OrderID)
	sys.ListStripeSession(stripeSession(call, a.SessionID, "complete"))

	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, 1, 0)
	testkit.Eventually(t, eventTravel, func() string {
		if st := checkoutState(t, a.OrderID); st != "COMPLETED" {
			return "checkout " + st + ", want COMPLETED once registration confirmed the order"
		}
		return ""
	})
	if n := metricTotal(t, sys.URLs["checkout"], "checkout_reconcile_settled", `outcome="paid"`) - before; n != 1 {
		t.Fatalf("%d settlements counted, want 1", n)
	}
	late := stripeEvent(t, "checkout.session.completed", call, a.SessionID)
	wantWebhook(t, deliver(t, late, signed(late, time.Now())), "duplicate")
	s.wantPlaces(t, 1, 0)
	if _, total := s.tickets(t, map[string]any{"ticketStatus": "ALL"}); total != 2 {
		t.Fatalf("%d tickets, want the pair's 2", total)
	}
}

// TestWebhookOfAnUnknownCheckoutIsDeliveredAgain: a recent event naming a checkout the system
// does not know is answered 503 through the gateway, in the standard format with Retry-After,
// so that Stripe delivers it again; it is counted.
func TestWebhookOfAnUnknownCheckoutIsDeliveredAgain(t *testing.T) {
	before := metricTotal(t, sys.URLs["checkout"], "checkout_webhooks_unknown", `outcome="retried"`)
	payload, err := json.Marshal(map[string]any{
		"id": "evt_" + randomID(), "object": "event", "api_version": stripego.APIVersion, "created": time.Now().Unix(),
		"type": "checkout.session.completed", "data": map[string]any{"object": map[string]any{
			"id": "cs_test_" + randomID(), "object": "checkout.session", "status": "complete", "payment_status": "paid",
			"metadata": map[string]string{"checkoutId": "chk_" + randomID()},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := deliver(t, payload, signed(payload, time.Now()))
	wantError(t, res, 503, "the checkout of this session is not known yet")
	if res.header.Get("Retry-After") == "" {
		t.Fatal("503 without Retry-After")
	}
	if n := metricTotal(t, sys.URLs["checkout"], "checkout_webhooks_unknown", `outcome="retried"`) - before; n != 1 {
		t.Fatalf("%d unknown webhooks counted, want 1", n)
	}
}
