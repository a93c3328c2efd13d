package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

const badSignature = "Stripe-Signature header is missing, invalid or too old"

// checkoutState reads the state of an order's checkout in checkout's records.
func checkoutState(t *testing.T, orderID string) string {
	t.Helper()
	state, err := sys.CheckoutState(t.Context(), orderID)
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// TestStripeWebhookRefusesForgedAndStaleDeliveries posts a completed session through the
// gateway without a signature, signed with another secret, with a tampered body and signed
// 301 s ago: each is refused and nothing is recorded, so the genuine delivery of the very same
// Stripe event is still applied afterwards.
func TestStripeWebhookRefusesForgedAndStaleDeliveries(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.open(t, s.purchase("Team Forged"))
	payload := stripeEvent(t, "checkout.session.completed", stripeSessionOf(t, s.org, a.OrderID), a.SessionID)
	tampered := []byte(strings.Replace(string(payload), `"amount_total":9450`, `"amount_total":1`, 1))
	if string(tampered) == string(payload) {
		t.Fatal("the tampered body is the payload")
	}
	for name, res := range map[string]response{
		"no signature":   deliver(t, payload, ""),
		"another secret": deliver(t, payload, signedWith(payload, "whsec_"+randomID(), time.Now())),
		"tampered body":  deliver(t, tampered, signed(payload, time.Now())),
		"stale (301 s)":  deliver(t, payload, signed(payload, time.Now().Add(-301*time.Second))),
		"garbage header": deliver(t, payload, "t=1,v1=00"),
	} {
		t.Run(name, func(t *testing.T) { wantError(t, res, 400, badSignature) })
	}
	if st := checkoutState(t, a.OrderID); st != "OPEN" {
		t.Fatalf("refused deliveries moved the checkout to %s", st)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "PENDING")

	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
}

// TestStripeWebhookDuplicateDeliveriesConfirmOnce: Stripe delivers an event again (same event
// id) and may report the same outcome in another event; the order is confirmed once and its
// place counted once.
func TestStripeWebhookDuplicateDeliveriesConfirmOnce(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.open(t, s.purchase("Team Twice"))
	call := stripeSessionOf(t, s.org, a.OrderID)
	payload := stripeEvent(t, "checkout.session.completed", call, a.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "duplicate")
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now().Add(-time.Minute))), "duplicate")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, 1, 0)

	again := stripeEvent(t, "checkout.session.async_payment_succeeded", call, a.SessionID)
	wantWebhook(t, deliver(t, again, signed(again, time.Now())), "duplicate")
	if st := checkoutState(t, a.OrderID); st != "COMPLETED" {
		t.Fatalf("another event of the same payment moved the checkout to %s", st)
	}
	if _, total := s.tickets(t, map[string]any{"ticketStatus": "ALL"}); total != 2 {
		t.Fatalf("%d tickets, want the pair's 2", total)
	}
	s.wantPlaces(t, 1, 0)
}

// TestStripeWebhookExpiryAfterPaymentChangesNothing: an expiry that arrives after the payment
// (out of order) leaves the paid order, its tickets and its place as they are.
func TestStripeWebhookExpiryAfterPaymentChangesNothing(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.open(t, s.purchase("Team Late Expiry"))
	call := stripeSessionOf(t, s.org, a.OrderID)
	paid := stripeEvent(t, "checkout.session.completed", call, a.SessionID)
	wantWebhook(t, deliver(t, paid, signed(paid, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	testkit.Eventually(t, eventTravel, func() string {
		if st := checkoutState(t, a.OrderID); st != "COMPLETED" {
			return "checkout " + st + ", want COMPLETED once registration confirmed the order"
		}
		return ""
	})

	expired := stripeEvent(t, "checkout.session.expired", call, a.SessionID)
	wantWebhook(t, deliver(t, expired, signed(expired, time.Now())), "applied")
	if st := checkoutState(t, a.OrderID); st != "COMPLETED" {
		t.Fatalf("the late expiry moved the checkout to %s", st)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, 1, 0)
}

// TestStripeWebhookPaymentAfterExpiryConfirms: the other order of arrival. The expiry releases
// the hold; the payment that follows still confirms the order, since a place is left.
func TestStripeWebhookPaymentAfterExpiryConfirms(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.open(t, s.purchase("Team Late Payment"))
	call := stripeSessionOf(t, s.org, a.OrderID)
	expired := stripeEvent(t, "checkout.session.expired", call, a.SessionID)
	wantWebhook(t, deliver(t, expired, signed(expired, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "CANCELLED", "CANCELLED")
	s.wantPlaces(t, 0, 0)

	paid := stripeEvent(t, "checkout.session.completed", call, a.SessionID)
	wantWebhook(t, deliver(t, paid, signed(paid, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, 1, 0)
}

// TestStripeWebhookPaymentAfterExpiryWithoutPlaceIsRefunded: the hold lapsed, another buyer
// took the last place, then the first payment arrives. The payment is refunded in full through
// Stripe, the order reads REFUNDED with its tickets cancelled, and the place stays the other
// buyer's.
func TestStripeWebhookPaymentAfterExpiryWithoutPlaceIsRefunded(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	s.limitPlaces(t, 1)
	late := s.open(t, s.purchase("Team Too Late"))
	lateCall := stripeSessionOf(t, s.org, late.OrderID)
	expired := stripeEvent(t, "checkout.session.expired", lateCall, late.SessionID)
	wantWebhook(t, deliver(t, expired, signed(expired, time.Now())), "applied")
	s.wantOrder(t, late.OrderID, "CANCELLED", "CANCELLED")

	first := s.open(t, s.purchase("Team In Time"))
	inTime := stripeEvent(t, "checkout.session.completed", stripeSessionOf(t, s.org, first.OrderID), first.SessionID)
	wantWebhook(t, deliver(t, inTime, signed(inTime, time.Now())), "applied")
	s.wantOrder(t, first.OrderID, "ACTIVE", "COMPLETED")
	soldOut := s.post(t, "session", s.purchase("Team Sold Out"))
	wantError(t, soldOut, 409, "is sold out")
	wantCode(t, soldOut, 409, "quota_exhausted")

	paid := stripeEvent(t, "checkout.session.completed", lateCall, late.SessionID)
	wantWebhook(t, deliver(t, paid, signed(paid, time.Now())), "applied")
	testkit.Eventually(t, eventTravel, func() string {
		if st := checkoutState(t, late.OrderID); st != "REFUNDED_NO_PLACE" {
			return "checkout " + st + ", want REFUNDED_NO_PLACE"
		}
		return ""
	})
	s.wantOrder(t, late.OrderID, "CANCELLED", "REFUNDED")
	s.wantPlaces(t, 1, 0)

	var event struct {
		Data struct {
			Object struct {
				PaymentIntent string `json:"payment_intent"`
			} `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(paid, &event); err != nil {
		t.Fatal(err)
	}
	refunds := sys.StripeCalls("POST", "/v1/refunds", s.org)
	if len(refunds) != 1 || refunds[0].Metadata("orderId") != late.OrderID ||
		refunds[0].Form.Get("payment_intent") != event.Data.Object.PaymentIntent || refunds[0].IdempotencyKey == "" {
		t.Fatalf("refunds reaching Stripe: %+v, want one of %s", refunds, event.Data.Object.PaymentIntent)
	}
}
