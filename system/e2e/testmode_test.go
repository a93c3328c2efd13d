package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// inTestMode returns the shop as its organizer's test keys see it: the same event and
// category, a test-mode secret key with every scope and a test-mode publishable key.
func (s *shop) inTestMode(t *testing.T) *shop {
	t.Helper()
	return &shop{
		tenant: tenant{
			org:         s.org,
			secret:      newKey(t, s.org, stack.KeySpec{Type: "secret", Scopes: stack.AllScopes, Mode: "test"}),
			publishable: newKey(t, s.org, stack.KeySpec{Type: "publishable", Origins: []string{site}, Mode: "test"}),
			visitorIP:   newVisitorIP(),
		},
		event: s.event, cat: s.cat,
	}
}

// purchaseBy is a purchase of a pair whose purchaser is email.
func (s *shop) purchaseBy(team, email string) map[string]any {
	p := s.purchase(team)
	p["purchaserEmail"] = email
	return p
}

// testOutcome gives a test checkout session an outcome (complete, fail, expire) with key.
func testOutcome(t *testing.T, key, sessionID, outcome string) response {
	t.Helper()
	return do(t, req{"POST", gw("/organizer/test/checkout-sessions/" + sessionID + "/" + outcome), secret(key), nil})
}

// liveRows counts what a live key sees of the shop: tickets of every status, registered and
// held places, webhook endpoints.
type liveRows struct{ tickets, registered, held, endpoints int }

func (s *shop) count(t *testing.T) liveRows {
	t.Helper()
	_, tickets := s.tickets(t, map[string]any{"ticketStatus": "ALL"})
	registered, held := s.places(t)
	res := do(t, req{"GET", gw("/organizer/webhook-endpoints"), secret(s.secret.Key), nil})
	var eps struct {
		Total int `json:"total"`
	}
	if res.status != 200 || json.Unmarshal(res.body, &eps) != nil {
		t.Fatalf("webhook endpoints: %d %s", res.status, res.body)
	}
	return liveRows{tickets, registered, held, eps.Total}
}

// TestTestModeAndLiveModeNeverMeet: one organizer buys the one place of a category with its
// live keys (paid by Stripe's signed webhook) and with its test keys (paid by the test-complete
// call). Each mode sees its own purchase only, in registration search, pricing-card counts,
// receipts and webhooks; the live sell-out does not stop the test purchase and a test sell-out
// leaves the live count alone; test mail is kept, not sent; and the test-data wipe leaves every
// live row where it was.
func TestTestModeAndLiveModeNeverMeet(t *testing.T) {
	live := newShop(t, "PUBLISHED")
	live.limitPlaces(t, 1)
	test := live.inTestMode(t)
	liveHooks, _ := startReceiver(t, live.secret.Key)
	testHooks, _ := startReceiver(t, test.secret.Key)
	liveBuyer, testBuyer := "live-"+randomID()+"@example.com", "test-"+randomID()+"@example.com"

	bought := live.open(t, live.purchaseBy("Live Pair", liveBuyer))
	payload := stripeEvent(t, "checkout.session.completed", stripeSessionOf(t, live.org, bought.OrderID), bought.SessionID)
	wantWebhook(t, deliver(t, payload, signed(payload, time.Now())), "applied")
	live.wantOrder(t, bought.OrderID, "ACTIVE", "COMPLETED")
	live.wantPlaces(t, 1, 0)

	// The live sell-out is no test sell-out: the test purchase takes the test ledger's place.
	tried := test.open(t, test.purchaseBy("Test Pair", testBuyer))
	wantCode(t, testOutcome(t, live.secret.Key, tried.SessionID, "complete"), 403, "test_key_required")
	wantCode(t, testOutcome(t, test.secret.Key, bought.SessionID, "complete"), 404, "not_found")
	res := testOutcome(t, test.secret.Key, tried.SessionID, "complete")
	var outcome struct {
		SessionID, OrderID, Outcome string
		Livemode                    *bool
	}
	if res.status != 202 || json.Unmarshal(res.body, &outcome) != nil || outcome.OrderID != tried.OrderID ||
		outcome.Outcome != "complete" || outcome.Livemode == nil || *outcome.Livemode {
		t.Fatalf("test-complete: %d %s", res.status, res.body)
	}
	wantCode(t, testOutcome(t, test.secret.Key, tried.SessionID, "expire"), 409, "conflict")
	test.wantOrder(t, tried.OrderID, "ACTIVE", "COMPLETED")
	test.wantPlaces(t, 1, 0)
	live.wantPlaces(t, 1, 0)

	// A test sell-out: the next test purchase is refused, as the live one would be.
	wantCode(t, test.post(t, "session", test.purchaseBy("Second Test Pair", "again-"+testBuyer)), 409, "quota_exhausted")

	// Search: each key finds its own order only, marked with its mode.
	for _, c := range []struct {
		s, other *shop
		own      string
		livemode bool
	}{{live, test, bought.OrderID, true}, {test, live, tried.OrderID, false}} {
		rows := searchRegistrations(t, c.s.secret.Key, map[string]any{"eventId": live.event.ID, "ticketStatus": "ALL"})
		if len(rows.Data) != 2 {
			t.Fatalf("livemode %v search: %d tickets, want the own pair's 2", c.livemode, len(rows.Data))
		}
		for _, r := range rows.Data {
			if r.Order.OrderID != c.own || r.Order.Livemode == nil || *r.Order.Livemode != c.livemode {
				t.Fatalf("livemode %v search found order %s (livemode %v), want only %s", c.livemode, r.Order.OrderID, r.Order.Livemode, c.own)
			}
		}
		// The other mode's ticket is as another organizer's: 404.
		other := searchRegistrations(t, c.other.secret.Key, map[string]any{"eventId": live.event.ID, "ticketStatus": "ALL"})
		wantCode(t, do(t, req{"DELETE", gw("/organizer/registrations/" + other.Data[0].Ticket.TicketID), secret(c.s.secret.Key), nil}), 404, "not_found")
	}

	// Receipts: a buyer's e-mail is found only with the key of the mode it bought in.
	for _, c := range []struct {
		key, email string
		found      bool
	}{{live.publishable.Key, liveBuyer, true}, {live.publishable.Key, testBuyer, false},
		{test.publishable.Key, testBuyer, true}, {test.publishable.Key, liveBuyer, false}} {
		var r struct{ Found bool }
		res := receipts(t, c.key, live.event.ID, "lookup", c.email)
		if res.status != 201 || json.Unmarshal(res.body, &r) != nil || r.Found != c.found {
			t.Fatalf("receipt lookup of %s: %d %s, want found %v", c.email, res.status, res.body, c.found)
		}
	}

	// Webhooks: each mode's order reaches its mode's endpoint only, marked with its mode.
	_, liveHook := waitHook(t, liveHooks, "order.completed", bought.OrderID)
	_, testHook := waitHook(t, testHooks, "order.completed", tried.OrderID)
	if !liveHook.Data.Livemode || testHook.Data.Livemode {
		t.Fatalf("order.completed livemode: live endpoint got %v, test endpoint got %v", liveHook.Data.Livemode, testHook.Data.Livemode)
	}
	for _, c := range []struct {
		r     *stack.Receiver
		order string
	}{{liveHooks, tried.OrderID}, {testHooks, bought.OrderID}} {
		for _, w := range c.r.Webhooks() {
			var b hook
			if json.Unmarshal(w.Body, &b) == nil && b.Data.ObjectID == c.order {
				t.Fatalf("the other mode's %s reached an endpoint: %s", w.Type, w.Body)
			}
		}
	}

	// Mail: the live buyer's receipt is mailed; the test buyer's is kept, never sent.
	for _, c := range []struct{ key, email string }{{live.publishable.Key, liveBuyer}, {test.publishable.Key, testBuyer}} {
		if res := receipts(t, c.key, live.event.ID, "send", c.email); res.status != 201 {
			t.Fatalf("receipt send to %s: %d %s", c.email, res.status, res.body)
		}
	}
	waitForMail(t, liveBuyer)
	if kept := waitTestMail(t, test.secret.Key, testBuyer); kept.Subject == "" || kept.Text == "" {
		t.Fatalf("kept mail %+v", kept)
	}
	if n := len(mailsTo(testBuyer)); n != 0 {
		t.Fatalf("%d test-mode mails were sent to %s", n, testBuyer)
	}

	// The wipe: test data goes, every live row stays.
	before := live.count(t)
	wantCode(t, do(t, req{"DELETE", gw("/organizer/test-data"), secret(live.secret.Key), nil}), 403, "test_key_required")
	res = do(t, req{"DELETE", gw("/organizer/test-data"), secret(test.secret.Key), nil})
	var wiped struct {
		Livemode bool           `json:"livemode"`
		Deleted  map[string]int `json:"deleted"`
	}
	if res.status != 200 || json.Unmarshal(res.body, &wiped) != nil || wiped.Livemode || wiped.Deleted["orders"] != 1 ||
		wiped.Deleted["tickets"] != 2 || wiped.Deleted["webhookEndpoints"] != 1 || wiped.Deleted["mail"] != 1 || wiped.Deleted["checkoutSessions"] < 1 {
		t.Fatalf("wipe: %d %s", res.status, res.body)
	}
	if after := live.count(t); after != before || before.tickets != 2 || before.registered != 1 || before.endpoints != 1 {
		t.Fatalf("live rows before the wipe %+v, after %+v", before, after)
	}
	if _, n := test.tickets(t, map[string]any{"ticketStatus": "ALL"}); n != 0 {
		t.Fatalf("%d test tickets left after the wipe", n)
	}
	test.wantPlaces(t, 0, 0)
	if again := do(t, req{"DELETE", gw("/organizer/test-data"), secret(test.secret.Key), nil}); again.status != 200 ||
		json.Unmarshal(again.body, &wiped) != nil || wiped.Deleted["orders"] != 0 || wiped.Deleted["webhookEndpoints"] != 0 {
		t.Fatalf("second wipe: %d %s", again.status, again.body)
	}
}

// TestLiveKeysCannotCallTheTestRoutes: every test-mode operation refuses a live secret key
// with 403 test_key_required, whatever its scopes.
func TestLiveKeysCannotCallTheTestRoutes(t *testing.T) {
	tn := newTenant(t)
	for _, r := range []req{
		tn.organizer("DELETE", "/test-data", nil),
		tn.organizer("GET", "/test/mail", nil),
		tn.organizer("POST", "/test/checkout-sessions/cs_test_a1/complete", nil),
		tn.organizer("POST", "/test/checkout-sessions/cs_test_a1/fail", nil),
		tn.organizer("POST", "/test/checkout-sessions/cs_test_a1/expire", nil),
	} {
		wantCode(t, do(t, r), 403, "test_key_required")
	}
}

// TestATestKeyReadsAnEventBeforeItIsPublished: a draft event is found by the organizer's test
// keys (detail and pricing cards, browser and organizer) and by no live publishable key.
func TestATestKeyReadsAnEventBeforeItIsPublished(t *testing.T) {
	live := newShop(t, "DRAFT")
	test := live.inTestMode(t)
	for _, c := range []struct {
		r    req
		want int
	}{
		{test.browser("GET", "/events/"+live.event.ID, nil), 200},
		{test.browser("GET", "/events/"+live.event.ID+"/pricing-cards", nil), 200},
		{test.organizer("GET", "/events/"+live.event.ID, nil), 200},
		{live.browser("GET", "/events/"+live.event.ID, nil), 404},
		{live.browser("GET", "/events/"+live.event.ID+"/pricing-cards", nil), 404},
	} {
		if res := do(t, c.r); res.status != c.want {
			t.Errorf("%s %s: %d %s, want %d", c.r.method, c.r.url, res.status, res.body, c.want)
		}
	}
}

// testMail is a message kept by test mode.
type testMail struct {
	ID, To, Subject, Text, OrderID string
}

// waitTestMail waits until the organizer's kept test mail holds a message to addr.
func waitTestMail(t *testing.T, key, addr string) testMail {
	t.Helper()
	var found testMail
	testkit.Eventually(t, eventTravel, func() string {
		res := do(t, req{"GET", gw("/organizer/test/mail?limit=100"), secret(key), nil})
		var page struct{ Data []testMail }
		if res.status != 200 || json.Unmarshal(res.body, &page) != nil {
			return fmt.Sprintf("test mail: %d %s", res.status, res.body)
		}
		for _, m := range page.Data {
			if m.To == addr {
				found = m
				return ""
			}
		}
		return fmt.Sprintf("no kept mail to %s among %d", addr, len(page.Data))
	})
	return found
}
