package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestCheckoutPaidThroughStripe is a purchase as a website and Stripe make it, through the
// gateway: the summary, the session (places held, one Stripe Checkout Session for the summary's
// total), Stripe's signed checkout.session.completed, then the athletes' tickets confirmed in
// the organizer's search and the place counted on the pricing card.
func TestCheckoutPaidThroughStripe(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	res := s.post(t, "summary", map[string]any{"categoryId": s.cat, "purchaserEmail": "ana@example.com"})
	var sum struct {
		Currency string `json:"currency"`
		Total    int64  `json:"total"`
	}
	if res.status != 201 || json.Unmarshal(res.body, &sum) != nil || sum.Total != pairTotal || sum.Currency != "EUR" {
		t.Fatalf("summary: %d %s, want a total of %d EUR", res.status, res.body, pairTotal)
	}
	registered, _ := s.places(t)

	a := s.open(t, s.purchase("Team Paid"))
	call := stripeSessionOf(t, s.org, a.OrderID)
	if call.AmountTotal() != sum.Total || call.Metadata("eventId") != s.event.ID || !strings.HasPrefix(call.Form.Get("success_url"), site+"/thanks") {
		t.Fatalf("Stripe was asked for %d (summary %d), event %q, success_url %q",
			call.AmountTotal(), sum.Total, call.Metadata("eventId"), call.Form.Get("success_url"))
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "PENDING")
	s.wantPlaces(t, registered, 1)

	payload := stripeEvent(t, "checkout.session.completed", call, a.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, registered+1, 0)
	if rows, _ := s.tickets(t, map[string]any{"status": "COMPLETED"}); len(rows) != 2 || rows[0].Order.Amount != pairTotal {
		t.Fatalf("completed tickets %+v, want the pair's two with the amount paid %d", rows, pairTotal)
	}
}

// TestCheckoutTriggerCommandPaysASession runs the stack's stripe-trigger as a developer does
// against the running system (services/checkout README): it signs checkout.session.completed
// for the order and posts it to the gateway.
func TestCheckoutTriggerCommandPaysASession(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	a := s.open(t, s.purchase("Team Trigger"))
	out, err := sys.Trigger(t.Context(), "--session", a.OrderID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "checkout.session.completed -> ") || !strings.Contains(out, ": 200 OK") || !strings.Contains(out, `"result":"applied"`) {
		t.Fatalf("trigger printed %q", out)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, 1, 0)
}

// TestFreeCheckoutConfirmsWithoutStripe uses a 100 % promocode: the total is zero (fees apply
// only to what is paid), so the session is answered at once with the success URL, Stripe is
// never called, and the order is confirmed by checkout's payment.succeeded of amount 0.
func TestFreeCheckoutConfirmsWithoutStripe(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	res := s.post(t, "summary", map[string]any{"categoryId": s.cat, "purchaserEmail": "ana@example.com", "promocode": "FREE100"})
	var sum struct {
		Total int64 `json:"total"`
	}
	if res.status != 201 || json.Unmarshal(res.body, &sum) != nil || sum.Total != 0 {
		t.Fatalf("summary with FREE100: %d %s, want a total of 0", res.status, res.body)
	}
	body := s.purchase("Team Free")
	body["promocode"] = "FREE100"
	a := s.open(t, body)
	if !strings.HasPrefix(a.SessionID, "free_") || !strings.HasPrefix(a.SessionURL, site+"/thanks") || !strings.Contains(a.SessionURL, "session_id="+a.SessionID) {
		t.Fatalf("free session %+v: want a free_ id and the success URL", a)
	}
	if n := len(stripeSessions(s.org)); n != 0 {
		t.Fatalf("a free checkout made %d Stripe calls", n)
	}
	s.wantOrder(t, a.OrderID, "ACTIVE", "COMPLETED")
	s.wantPlaces(t, 1, 0)
}

// TestGuestRegistrationKeepsTheGuestsContact: a buyer registers a second pair for a friend in
// the same checkout; the organizer's search shows that registration with the guest's e-mail
// and name, and the buyer's own without; the guest's e-mail finds the receipt.
func TestGuestRegistrationKeepsTheGuestsContact(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	body := s.purchase("Team Buyer")
	body["promocode"] = "FREE100"
	friend := s.purchase("Team Friend")
	guest := map[string]any{"guestEmail": "carla@example.com", "guestName": "Carla Amiga"}
	for _, k := range []string{"categoryId", "teamName", "athletes", "customFields", "waiversAccepted"} {
		guest[k] = friend[k]
	}
	body["guestRegistrations"] = []any{guest}
	a := s.open(t, body)
	s.wantPlaces(t, 2, 0)

	res := do(t, req{"POST", gw("/organizer/registrations/search"), secret(s.secret.Key),
		map[string]any{"eventId": s.event.ID, "status": "COMPLETED"}})
	var page struct {
		Data []struct {
			Registration struct {
				TeamName string `json:"teamName"`
				Guest    *struct {
					Email string `json:"email"`
					Name  string `json:"name"`
				} `json:"guest"`
			} `json:"registration"`
			Order struct {
				OrderID        string `json:"orderId"`
				PurchaserEmail string `json:"purchaserEmail"`
			} `json:"order"`
		} `json:"data"`
	}
	decodeOK(t, res, 201, "organizerSearchRegistrations", &page)
	if len(page.Data) != 4 {
		t.Fatalf("%d tickets, want both pairs' 4: %s", len(page.Data), res.body)
	}
	for _, row := range page.Data {
		r := row.Registration
		switch {
		case row.Order.OrderID != a.OrderID || row.Order.PurchaserEmail != "ana@example.com":
			t.Fatalf("order %+v, want %s bought by ana@example.com", row.Order, a.OrderID)
		case r.TeamName == "Team Buyer" && r.Guest != nil:
			t.Fatalf("the buyer's own registration has a guest %+v", *r.Guest)
		case r.TeamName == "Team Friend" && (r.Guest == nil || r.Guest.Email != "carla@example.com" || r.Guest.Name != "Carla Amiga"):
			t.Fatalf("the guest registration's contact is %+v", r.Guest)
		}
	}
	// The guest finds the order's receipt by the contact the buyer gave.
	if res := receipts(t, s.publishable.Key, s.event.ID, "lookup", "Carla@Example.com"); res.status != 201 || !strings.Contains(string(res.body), `"count":1`) {
		t.Fatalf("receipt lookup of the guest: %d %s", res.status, res.body)
	}
}

// TestUnpublishedEventNeedsItsPreviewToken: a draft event is not sold to the public, but its
// preview token opens it, as on the catalog's browser reads.
func TestUnpublishedEventNeedsItsPreviewToken(t *testing.T) {
	s := newShop(t, "DRAFT")
	body := s.purchase("Team Preview")
	wantError(t, s.post(t, "session", body), 404, "event "+s.event.ID+" not found")
	body["previewToken"] = "prv_" + strings.Repeat("x", 32)
	wantError(t, s.post(t, "session", body), 404, "event "+s.event.ID+" not found")
	body["previewToken"] = s.event.PreviewToken
	a := s.open(t, body)
	stripeSessionOf(t, s.org, a.OrderID)
	s.wantOrder(t, a.OrderID, "ACTIVE", "PENDING")
}

// TestIdempotentSessionReplay: a retry with the same idempotencyKey and body gets the first
// answer without a second hold or Stripe call; another body with that key is refused.
func TestIdempotentSessionReplay(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	body := s.purchase("Team Retry")
	body["idempotencyKey"] = "e2e-retry-0001"
	first := s.post(t, "session", body)
	a := wantSession(t, first)
	again := s.post(t, "session", body)
	if b := wantSession(t, again); b != a || string(again.body) != string(first.body) {
		t.Fatalf("replay answered %s, want %s", again.body, first.body)
	}
	if first.header.Get("Idempotent-Replayed") != "" || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("Idempotent-Replayed %q then %q, want none then true", first.header.Get("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"))
	}
	other := s.purchase("Team Other")
	other["idempotencyKey"] = "e2e-retry-0001"
	reused := s.post(t, "session", other)
	wantError(t, reused, 422, "idempotencyKey was already used with a different request body")
	wantCode(t, reused, 422, "idempotency_key_reused")

	// stripe-mock names every session alike, so "one purchase" is shown by the order: one
	// Stripe request, one hold (the pair's two tickets).
	if n := len(stripeSessions(s.org)); n != 1 {
		t.Fatalf("%d Stripe Checkout Session requests, want 1", n)
	}
	if _, total := s.tickets(t, nil); total != 2 {
		t.Fatalf("%d tickets held, want the pair's 2", total)
	}
}
