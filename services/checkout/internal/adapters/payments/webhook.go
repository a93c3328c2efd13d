package payments

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// Tolerance is how old a webhook's signed timestamp may be.
const Tolerance = 300 * time.Second

// ParseWebhook verifies the Stripe-Signature header of payload with the webhook secret and a
// 300 s tolerance, and reads the checkout session the event is about. API version mismatches
// are accepted: only long-stable fields of the session are read (id, metadata,
// payment_status, payment_intent, amount_total, currency).
func (c *Client) ParseWebhook(payload []byte, signature string) (domain.PaymentEvent, error) {
	return parseWebhook(payload, signature, c.webhookSecret)
}

func parseWebhook(payload []byte, signature, secret string) (domain.PaymentEvent, error) {
	ev, err := webhook.ConstructEventWithOptions(payload, signature, secret, webhook.ConstructEventOptions{
		Tolerance: Tolerance, IgnoreAPIVersionMismatch: true,
	})
	if err != nil {
		return domain.PaymentEvent{}, fmt.Errorf("%w: %w", domain.ErrInvalidSignature, err)
	}
	out := domain.PaymentEvent{ID: ev.ID, Kind: domain.PaymentEventKind(ev.Type), Created: time.Unix(ev.Created, 0).UTC()}
	if ev.ID == "" {
		return domain.PaymentEvent{}, fmt.Errorf("%w: the event has no id", domain.ErrInvalidBody)
	}
	if !out.Handled() || ev.Data == nil {
		return checked(out)
	}
	var s stripe.CheckoutSession
	if err := json.Unmarshal(ev.Data.Raw, &s); err != nil {
		return domain.PaymentEvent{}, fmt.Errorf("%w: the event's object is not a checkout session", domain.ErrInvalidBody)
	}
	se := sessionEvent(out.Kind, &s)
	se.ID, se.Created = out.ID, out.Created
	return checked(se)
}

// sessionEvent reads what checkout needs of a session into an event of kind: its id, the
// checkout and order of its metadata (the order also from client_reference_id), whether it is
// paid, its payment intent, amount and currency.
func sessionEvent(kind domain.PaymentEventKind, s *stripe.CheckoutSession) domain.PaymentEvent {
	out := domain.PaymentEvent{Kind: kind, SessionID: s.ID, CheckoutID: s.Metadata["checkoutId"], OrderID: s.Metadata["orderId"], OrganizerID: s.Metadata["organizerId"]}
	if out.OrderID == "" {
		out.OrderID = s.ClientReferenceID
	}
	out.Paid = s.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid ||
		s.PaymentStatus == stripe.CheckoutSessionPaymentStatusNoPaymentRequired
	if s.PaymentIntent != nil {
		out.PaymentIntent = s.PaymentIntent.ID
	}
	if s.AmountTotal > 0 {
		amount := s.AmountTotal
		out.AmountTotal = &amount
	}
	out.Currency = string(s.Currency)
	return out
}

// checked returns e, or refuses it when what is read of it holds U+0000: no id Stripe gives has
// one, and PostgreSQL refuses it in text.
func checked(e domain.PaymentEvent) (domain.PaymentEvent, error) {
	for _, v := range []string{e.ID, string(e.Kind), e.SessionID, e.CheckoutID, e.OrderID, e.OrganizerID, e.PaymentIntent, e.Currency} {
		if strings.IndexByte(v, 0) >= 0 {
			return domain.PaymentEvent{}, fmt.Errorf("%w: the event holds the character U+0000", domain.ErrInvalidBody)
		}
	}
	return e, nil
}
