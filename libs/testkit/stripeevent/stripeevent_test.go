package stripeevent_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/libs/testkit/stripeevent"
)

func TestEventsParseAsStripeSendsThem(t *testing.T) {
	at := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	s := stripeevent.Session{CheckoutID: "chk_1", SessionID: "cs_1", OrderID: "ord_1", Currency: "EUR", Amount: 4200}
	for _, tc := range []struct {
		typ           string
		paid          bool
		status        stripe.CheckoutSessionStatus
		paymentStatus stripe.CheckoutSessionPaymentStatus
		intent        bool
	}{
		{"checkout.session.completed", true, "complete", "paid", true},
		{"checkout.session.completed", false, "complete", "unpaid", true},
		{"checkout.session.async_payment_failed", true, "complete", "unpaid", true},
		{"checkout.session.expired", true, "expired", "unpaid", false},
	} {
		raw, err := stripeevent.Build(tc.typ, s, tc.paid, at)
		if err != nil {
			t.Fatal(err)
		}
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: raw, Secret: "whsec_x", Timestamp: at})
		ev, err := webhook.ConstructEventWithTolerance(raw, signed.Header, "whsec_x", time.Hour*24*365*100)
		if err != nil {
			t.Fatalf("%s: %v", tc.typ, err)
		}
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(ev.Data.Raw, &cs); err != nil {
			t.Fatal(err)
		}
		if string(ev.Type) != tc.typ || cs.ID != "cs_1" || cs.Status != tc.status || cs.PaymentStatus != tc.paymentStatus ||
			(cs.PaymentIntent != nil) != tc.intent || cs.Metadata["checkoutId"] != "chk_1" || cs.ClientReferenceID != "ord_1" ||
			cs.Currency != "eur" || cs.AmountTotal != 4200 {
			t.Fatalf("%s (paid %v): %+v", tc.typ, tc.paid, cs)
		}
	}
}
