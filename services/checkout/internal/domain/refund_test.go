package domain_test

import (
	"errors"
	"strings"
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
		low, high := domain.RefundRetryWait(c.attempts, 0, domain.RefundMaxRetry), domain.RefundRetryWait(c.attempts, 0.999999, domain.RefundMaxRetry)
		if low != c.step/2 || high <= low || high > c.step {
			t.Errorf("attempt %d: waits from %s to %s, want from %s to %s", c.attempts, low, high, c.step/2, c.step)
		}
	}
}

// TestRefundAttempts: a decided refund is due at once; a temporary failure of the latest
// claim counts an attempt and puts the next one after its wait, keeping the error; a refusal
// for good is REFUND_FAILED with the provider's code and message and nothing due, once; an
// operator's retry makes it due again with its failures forgotten; the refund made clears what
// is due.
func TestRefundAttempts(t *testing.T) {
	c := checkout(domain.StatePaid)
	if c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_1"}, now); c.RefundNextAttemptAt == nil || !c.RefundNextAttemptAt.Equal(now) || c.RefundAttempts != 0 {
		t.Fatalf("decided: %+v", c)
	}
	later := now.Add(time.Minute)
	c.RefundClaim = 1
	if !c.RefundRetryLater(1, &domain.RefundError{Message: "stripe: refund: HTTP 503"}, later, 10*time.Second) || c.State != domain.StateRefundPending ||
		c.RefundAttempts != 1 || !c.RefundNextAttemptAt.Equal(later.Add(10*time.Second)) || c.RefundErrorMessage != "stripe: refund: HTTP 503" ||
		c.RefundFailedAt != nil || !c.UpdatedAt.Equal(now) {
		t.Fatalf("temporary failure: %+v", c)
	}
	c.RefundClaim = 2
	refusal := &domain.RefundError{Code: "charge_disputed", Message: "Charge ch_1 is disputed.", Permanent: true}
	if !c.RefundRefused(2, refusal, later) || c.State != domain.StateRefundFailed || c.RefundNextAttemptAt != nil || c.RefundAttempts != 2 ||
		c.RefundErrorCode != "charge_disputed" || c.RefundErrorMessage != refusal.Message || !c.RefundFailedAt.Equal(later) || c.RefundPending() {
		t.Fatalf("refused: %+v", c)
	}
	if c.RefundRefused(2, refusal, later) || c.RefundRetryLater(2, refusal, later, time.Second) || c.State != domain.StateRefundFailed || c.RefundNextAttemptAt != nil {
		t.Fatalf("a refused refund changed again: %+v", c)
	}
	if err := c.RetryRefund(later, ""); err != nil || c.State != domain.StateRefundPending || !c.RefundNextAttemptAt.Equal(later) || c.RefundAttempts != 0 ||
		c.RefundErrorCode != "" || c.RefundFailedAt != nil || c.RefundClaim != 2 {
		t.Fatalf("retried: %v %+v", err, c)
	}
	if msgs := c.Refunded("re_1", later); len(msgs) != 1 || c.State != domain.StateRefundedNoPlace || c.RefundNextAttemptAt != nil {
		t.Fatalf("refunded: %+v", c)
	}
	if c.Refunded("re_2", later) != nil || c.RefundID != "re_1" {
		t.Fatalf("a refund recorded twice: %+v", c)
	}
	if err := c.RetryRefund(later, ""); !errors.Is(err, fault.ErrConflict) || c.State != domain.StateRefundedNoPlace {
		t.Fatalf("retry of a refunded checkout: %v, %s", err, c.State)
	}
}

// TestOnlyTheLatestClaimRecordsAFailure: a worker whose claim lapsed and was claimed again
// records no failure over the later claim's attempt, nor turns an operator's retry back to
// REFUND_FAILED; a refund made is recorded whichever claim made it, also over a refusal.
func TestOnlyTheLatestClaimRecordsAFailure(t *testing.T) {
	c := checkout(domain.StatePaid)
	c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_1"}, now)
	c.RefundClaim = 3 // claims 1 and 2 lapsed
	refusal := &domain.RefundError{Code: "charge_disputed", Message: "disputed", Permanent: true}
	if c.RefundRetryLater(2, &domain.RefundError{Message: "timeout"}, now, time.Minute) || c.RefundRefused(1, refusal, now) ||
		c.State != domain.StateRefundPending || c.RefundAttempts != 0 || !c.RefundNextAttemptAt.Equal(now) {
		t.Fatalf("a lapsed claim's failure was recorded: %+v", c)
	}
	if !c.RefundRefused(3, refusal, now) {
		t.Fatal("the latest claim's refusal was not recorded")
	}
	if msgs := c.Refunded("re_late", now); len(msgs) != 1 || c.State != domain.StateRefundedNoPlace || c.RefundID != "re_late" {
		t.Fatalf("a refund made by a lapsed claim after a refusal: %+v", c)
	}
}

// TestRefundIdempotencyKeys: the first claim asks with the order's key and reads nothing
// first; every later claim reads the payment's refunds first and asks with a key of its own,
// since the provider gives the first answer to a key again, failures included.
func TestRefundIdempotencyKeys(t *testing.T) {
	c := checkout(domain.StateRefundPending)
	for _, tc := range []struct {
		claim   int
		key     string
		retried bool
	}{{1, "podium-refund-ord_1", false}, {2, "podium-refund-ord_1-2", true}, {7, "podium-refund-ord_1-7", true}} {
		c.RefundClaim = tc.claim
		if r := c.Refund(); r.IdempotencyKey != tc.key || c.RefundRetried() != tc.retried || r.Metadata["checkoutId"] != "chk_1" {
			t.Errorf("claim %d: key %s, retried %v; want %s, %v", tc.claim, r.IdempotencyKey, c.RefundRetried(), tc.key, tc.retried)
		}
	}
}

// TestRefundAmong: among a payment's refunds, one naming the checkout is its refund unless it
// failed or was canceled; refunds made otherwise stand for it once they return the whole
// payment in its currency (the newest of them); another payment's refunds never count.
func TestRefundAmong(t *testing.T) {
	at := func(m int) time.Time { return now.Add(time.Duration(m) * time.Minute) }
	ours := domain.ProviderRefund{ID: "re_ours", PaymentIntent: "pi_1", Status: "succeeded", Amount: 5875, Created: at(1), CheckoutID: "chk_1"}
	elsewhere := domain.ProviderRefund{ID: "re_mock", Status: "succeeded", Amount: 5875, Created: at(9)} // stripe-mock's fixture: no payment intent
	for _, tc := range []struct {
		name   string
		listed []domain.ProviderRefund
		id     string
		found  domain.RefundFound
	}{
		{"none", nil, "", domain.RefundNotFound},
		{"another payment's", []domain.ProviderRefund{elsewhere, {ID: "re_x", PaymentIntent: "pi_2", Status: "succeeded", Amount: 9000, CheckoutID: "chk_1"}}, "", domain.RefundNotFound},
		{"ours", []domain.ProviderRefund{elsewhere, ours}, "re_ours", domain.RefundFoundOurs},
		{"ours, pending", []domain.ProviderRefund{{ID: "re_p", PaymentIntent: "pi_1", Status: "pending", Amount: 5875, CheckoutID: "chk_1"}}, "re_p", domain.RefundFoundOurs},
		{"ours failed", []domain.ProviderRefund{{ID: "re_f", PaymentIntent: "pi_1", Status: "failed", Amount: 5875, CheckoutID: "chk_1"}}, "", domain.RefundNotFound},
		{"ours canceled", []domain.ProviderRefund{{ID: "re_c", PaymentIntent: "pi_1", Status: "canceled", Amount: 5875, CheckoutID: "chk_1"}}, "", domain.RefundNotFound},
		{"the dashboard's, in full", []domain.ProviderRefund{{ID: "re_d", PaymentIntent: "pi_1", Status: "succeeded", Amount: 5875, Currency: "eur", Created: at(2)}}, "re_d", domain.RefundFoundInFull},
		{"the dashboard's, in two parts", []domain.ProviderRefund{
			{ID: "re_d2", PaymentIntent: "pi_1", Status: "succeeded", Amount: 875, Currency: "eur", Created: at(3)},
			{ID: "re_d1", PaymentIntent: "pi_1", Status: "succeeded", Amount: 5000, Currency: "EUR", Created: at(2)},
			{ID: "re_df", PaymentIntent: "pi_1", Status: "failed", Amount: 5875, Currency: "eur", Created: at(4)},
		}, "re_d2", domain.RefundFoundInFull},
		{"the dashboard's, in part", []domain.ProviderRefund{{ID: "re_half", PaymentIntent: "pi_1", Status: "succeeded", Amount: 2000, Currency: "eur"}}, "", domain.RefundNotFound},
		{"the dashboard's, in another currency", []domain.ProviderRefund{{ID: "re_usd", PaymentIntent: "pi_1", Status: "succeeded", Amount: 9000, Currency: "usd"}}, "", domain.RefundNotFound},
	} {
		c := checkout(domain.StateRefundPending)
		c.PaymentIntent, c.AmountPaid = "pi_1", ptr(int64(5875))
		if r, found := c.RefundAmong(tc.listed); r.ID != tc.id || found != tc.found {
			t.Errorf("%s: %q %v, want %q %v", tc.name, r.ID, found, tc.id, tc.found)
		}
	}
}

// TestARetryNamesAPaymentOnlyWhereNoneIsRecorded: an operator's retry may name the payment of
// a checkout that records none; naming another than the one recorded is refused, since a typo
// would refund another buyer.
func TestARetryNamesAPaymentOnlyWhereNoneIsRecorded(t *testing.T) {
	c := checkout(domain.StatePaid)
	c.RefundNoPlace(domain.OrderEvent{PaymentRef: "pi_1"}, now)
	c.RefundClaim = 1
	c.RefundRefused(1, &domain.RefundError{Code: "charge_disputed", Permanent: true}, now)
	if err := c.RetryRefund(now, "pi_other"); !errors.Is(err, fault.ErrConflict) || c.PaymentIntent != "pi_1" || c.State != domain.StateRefundFailed {
		t.Fatalf("retry naming another payment: %v %+v", err, c)
	}
	if err := c.RetryRefund(now, "pi_1"); err != nil || c.PaymentIntent != "pi_1" || c.State != domain.StateRefundPending {
		t.Fatalf("retry naming the recorded payment: %v %+v", err, c)
	}
}

// TestARefundResolvedOutsideCheckout: a refund that failed for good whose payment was returned
// outside checkout is recorded with the operator's reference, in its refunded state, with
// payment.refunded; a checkout not REFUND_FAILED, or a reference empty, too long or with a
// control character, is refused and left as it is.
func TestARefundResolvedOutsideCheckout(t *testing.T) {
	pending := checkout(domain.StateExpired)
	pending.RefundNoPromocode(domain.PaymentEvent{PaymentIntent: "pi_1"}, now)
	if _, err := pending.ResolveRefund("re_1", now); !errors.Is(err, fault.ErrConflict) || pending.State != domain.StateRefundPending {
		t.Fatalf("resolve of a pending refund: %v %s", err, pending.State)
	}
	failed := pending
	failed.RefundClaim = 1
	failed.RefundRefused(1, &domain.RefundError{Code: "charge_disputed", Permanent: true}, now)
	for _, ref := range []string{"", strings.Repeat("r", 256), "re_1\n2026-11-28 refunded"} {
		if _, err := failed.ResolveRefund(ref, now); !errors.Is(err, fault.ErrConflict) || failed.State != domain.StateRefundFailed {
			t.Fatalf("resolve with %q: %v %s", ref, err, failed.State)
		}
	}
	msgs, err := failed.ResolveRefund("re_dashboard", now.Add(time.Hour))
	if err != nil || failed.State != domain.StateRefundedNoPromocode || failed.RefundID != "re_dashboard" || len(msgs) != 1 ||
		msgs[0].Type != domain.EventPaymentRefunded || msgs[0].Data.(domain.PaymentRefunded).RefundID != "re_dashboard" {
		t.Fatalf("resolved: %v %+v %+v", err, failed, msgs)
	}
}
