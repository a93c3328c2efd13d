package e2e

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentIdenticalSessionsMakeOneHoldAndOneStripeCall sends 50 identical session
// requests (one idempotencyKey, a buyer's impatient clicks and the site's retries) at once
// through a gateway. The suite's gateways would refuse all but a handful (5 per key and 3 per
// address a minute), so this test starts a gateway of its own with the checkout-session limits
// off: everything else about the path is the same. Every request gets the one answer, after
// one hold and one Stripe call.
func TestConcurrentIdenticalSessionsMakeOneHoldAndOneStripeCall(t *testing.T) {
	ctx := t.Context()
	base, stop, err := sys.AddGateway(ctx, "RATE_LIMIT_CHECKOUT_SESSION_PER_KEY=0", "RATE_LIMIT_CHECKOUT_SESSION_PER_IP=0", "RATE_LIMIT_BROWSER_PER_IP=0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	s := newShop(t, "PUBLISHED")
	body := s.purchase("Team Impatient")
	body["idempotencyKey"] = "e2e-double-click-0001"
	raw, _ := json.Marshal(body)

	const n = 50
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make([]answer, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			res, err := roundTrip(ctx, req{"POST", base + "/external/v1/browser/checkout/registration/session",
				map[string]string{"x-publishable-key": s.publishable.Key, "Origin": site, "X-Forwarded-For": s.visitorIP}, raw})
			answers[i] = answer{res.status, string(res.body), err}
		})
	}
	close(start)
	wg.Wait()
	for i, a := range answers {
		if a.err != nil || a.status != 201 || a.body != answers[0].body {
			t.Fatalf("request %d: %d %s (%v); want 201 %s", i, a.status, a.body, a.err, answers[0].body)
		}
	}

	calls := stripeSessions(s.org)
	if len(calls) != 1 || !strings.HasPrefix(calls[0].IdempotencyKey, "podium-checkout-chk_") {
		t.Fatalf("%d Stripe Checkout Session requests (%+v), want 1 with checkout's idempotency key", len(calls), calls)
	}
	if _, total := s.tickets(t, nil); total != 2 {
		t.Fatalf("%d tickets held, want the pair's 2 (one hold)", total)
	}
	s.wantPlaces(t, 0, 1)
}
