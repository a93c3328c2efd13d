package domain_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// TestPaymentFailedCarriesTheSessionAsOrganizersSeeIt: an expiry and a failed delayed payment
// publish the organizer, livemode, when it happened and the checkout session after the
// change, in UTC; the buyer and the payment intent stay out of it.
func TestPaymentFailedCarriesTheSessionAsOrganizersSeeIt(t *testing.T) {
	cest := time.FixedZone("CEST", 2*3600)
	created, expires := now.Add(-40*time.Minute).In(cest), now.Add(-time.Minute).In(cest)
	for kind, status := range map[domain.PaymentEventKind]string{
		domain.PaymentExpired: domain.SessionStatusExpired, domain.PaymentAsyncFailed: domain.SessionStatusFailed,
	} {
		c := checkout(domain.StateOpen)
		c.OrganizerID, c.EventID, c.CreatedAt, c.SessionExpiresAt = "org_1", "evt_1", created, &expires
		c.PurchaserEmail, c.PurchaserName = "buyer@example.com", "Buyer"
		msgs := c.ApplyPayment(pay(kind, false), now.In(cest))
		got := msgs[0].Data.(domain.PaymentFailed)
		want := domain.CheckoutSession{SessionID: "cs_1", OrderID: "ord_1", EventID: "evt_1", Status: status,
			AmountTotal: 5875, Currency: "EUR", CreatedAt: created.UTC()}
		exp := got.Object.ExpiresAt
		got.Object.ExpiresAt = nil
		if got.OrganizerID != "org_1" || !got.Livemode || got.OccurredAt != now || got.Object != want ||
			exp == nil || *exp != expires.UTC() {
			t.Fatalf("%s: %+v, expires %v", kind, got, exp)
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); strings.Contains(s, "buyer@example.com") || strings.Contains(s, "Buyer") || strings.Contains(s, "pi_1") || strings.Contains(s, "+02:00") {
			t.Fatalf("%s: %s", kind, s)
		}
	}
}

// TestSessionNotRecordedYetHasNoExpiry: an outcome that raced ahead of the session's record
// names the provider's session and no expiry.
func TestSessionNotRecordedYetHasNoExpiry(t *testing.T) {
	c := checkout(domain.StateHeld)
	c.SessionID = ""
	got := c.ApplyPayment(pay(domain.PaymentExpired, false), now)[0].Data.(domain.PaymentFailed)
	if got.SessionID != "cs_1" || got.Object.SessionID != "cs_1" || got.Object.ExpiresAt != nil {
		t.Fatalf("%+v", got)
	}
}
