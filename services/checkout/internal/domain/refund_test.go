package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestRefundRetryWait: 10 s doubling up to 15 min, of which jitter takes a half to the whole.
func TestRefundRetryWait(t *testing.T) {
	for _, c := range []struct {
		attempts int
		step     time.Duration
	}{
		{1, 10 * time.Second}, {2, 20 * time.Second}, {3, 40 * time.Second}, {7, 640 * time.Second},
		{8, 15 * time.Minute}, {19, 15 * time.Minute}, {1000, 15 * time.Minute},
	} {
		low, high := domain.RefundRetryWait(c.attempts, 0), domain.RefundRetryWait(c.attempts, 0.999999)
		if low != c.step/2 || high <= low || high > c.step {
			t.Errorf("attempt %d: waits from %s to %s, want from %s to %s", c.attempts, low, high, c.step/2, c.step)
		}
	}
}

// TestRefundAttempts: a decided refund is due at once; a temporary failure counts an attempt
// and puts the next one after its wait, keeping the error; a refusal for good is REFUND_FAILED
// with the provider's code and message and nothing due, once; an operator's retry makes it due
// again with its failures forgotten; the refund made clears what is due.
func TestRefundAttempts(t *testing.T) {
	c := checkout(domain.StatePaid)
	if err := c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_1"}, now); err != nil || c.RefundNextAttemptAt == nil || !c.RefundNextAttemptAt.Equal(now) || c.RefundAttempts != 0 {
		t.Fatalf("decided: %v %+v", err, c)
	}
	later := now.Add(time.Minute)
	c.RefundRetryLater(&domain.RefundError{Message: "stripe: refund: HTTP 503"}, later, 10*time.Second)
	if c.State != domain.StateRefundPending || c.RefundAttempts != 1 || !c.RefundNextAttemptAt.Equal(later.Add(10*time.Second)) ||
		c.RefundErrorMessage != "stripe: refund: HTTP 503" || c.RefundFailedAt != nil {
		t.Fatalf("temporary failure: %+v", c)
	}
	refusal := &domain.RefundError{Code: "charge_already_refunded", Message: "Charge ch_1 has already been refunded.", Permanent: true}
	if !c.RefundRefused(refusal, later) || c.State != domain.StateRefundFailed || c.RefundNextAttemptAt != nil || c.RefundAttempts != 2 ||
		c.RefundErrorCode != "charge_already_refunded" || c.RefundErrorMessage != refusal.Message || !c.RefundFailedAt.Equal(later) || c.RefundPending() {
		t.Fatalf("refused: %+v", c)
	}
	if c.RefundRefused(refusal, later) || c.Refunded("re_1", later) != nil || c.State != domain.StateRefundFailed {
		t.Fatalf("a refused refund changed again: %+v", c)
	}
	c.RefundRetryLater(refusal, later, time.Second)
	if c.RefundNextAttemptAt != nil {
		t.Fatal("a refused refund was made due by a temporary failure")
	}
	if err := c.RetryRefund(later); err != nil || c.State != domain.StateRefundPending || !c.RefundNextAttemptAt.Equal(later) || c.RefundAttempts != 0 ||
		c.RefundErrorCode != "" || c.RefundFailedAt != nil {
		t.Fatalf("retried: %v %+v", err, c)
	}
	if msgs := c.Refunded("re_1", later); len(msgs) != 1 || c.State != domain.StateRefundedNoPlace || c.RefundNextAttemptAt != nil {
		t.Fatalf("refunded: %+v", c)
	}
	if err := c.RetryRefund(later); !errors.Is(err, fault.ErrConflict) || c.State != domain.StateRefundedNoPlace {
		t.Fatalf("retry of a refunded checkout: %v, %s", err, c.State)
	}
}
