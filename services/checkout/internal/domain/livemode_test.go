package domain_test

import (
	"testing"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestTestCheckoutsPublishTestEvents: every payment event of a test checkout says livemode
// false, so that registration and webhooks keep it apart from live data.
func TestTestCheckoutsPublishTestEvents(t *testing.T) {
	c := checkout(domain.StateOpen)
	c.Livemode = false
	if got := c.ApplyPayment(pay(domain.PaymentCompleted, true), now)[0].Data.(domain.PaymentSucceeded); got.Livemode {
		t.Fatalf("succeeded: %+v", got)
	}
	c = checkout(domain.StateOpen)
	c.Livemode = false
	if got := c.ApplyPayment(pay(domain.PaymentExpired, false), now)[0].Data.(domain.PaymentFailed); got.Livemode {
		t.Fatalf("failed: %+v", got)
	}
	c = checkout(domain.StateHeld)
	c.Livemode = false
	if got := c.PaidFree("free_1", "https://example.com/ok", now)[0].Data.(domain.PaymentSucceeded); got.Livemode {
		t.Fatalf("free: %+v", got)
	}
	c = checkout(domain.StateOpen)
	c.Livemode = false
	c.RefundNoPromocode(pay(domain.PaymentCompleted, true), now)
	if got := c.Refunded("re_1", now)[0].Data.(domain.PaymentRefunded); got.Livemode {
		t.Fatalf("refunded: %+v", got)
	}
}
