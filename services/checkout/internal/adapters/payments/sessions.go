package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/stripe/stripe-go/v76"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// listPage is how many sessions one list request asks for (Stripe's largest page).
const listPage = 100

// RecentSessions lists the Checkout Sessions created since (created[gte]), every page, each
// with its creation time and what its state says: complete as checkout.session.completed (paid,
// needing no payment, or awaiting a delayed payment), expired as checkout.session.expired, open
// with no outcome. A session whose ids hold U+0000 (none of Stripe's or checkout's do) is left
// out.
func (c *Client) RecentSessions(ctx context.Context, since time.Time) ([]domain.ListedSession, error) {
	params := &stripe.CheckoutSessionListParams{CreatedRange: &stripe.RangeQueryParams{GreaterThanOrEqual: since.Unix()}}
	params.Limit = stripe.Int64(listPage)
	params.Context = ctx
	var out []domain.ListedSession
	it := c.api.CheckoutSessions.List(params)
	for it.Next() {
		s := it.CheckoutSession()
		if ev, err := checked(outcome(s)); err == nil {
			out = append(out, domain.ListedSession{Created: time.Unix(s.Created, 0).UTC(), Outcome: ev})
		}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("stripe: list checkout sessions: %w", describe(err))
	}
	return out, nil
}

// Session reads one Checkout Session by id, its payment intent expanded, as RecentSessions
// lists it; a complete session awaiting a delayed payment whose payment intent failed (it
// needs another payment method, or was canceled) reads as checkout.session.async_payment_failed.
func (c *Client) Session(ctx context.Context, id string) (domain.ListedSession, error) {
	params := &stripe.CheckoutSessionParams{}
	params.Context = ctx
	params.AddExpand("payment_intent")
	s, err := c.api.CheckoutSessions.Get(id, params)
	if err != nil {
		return domain.ListedSession{}, fmt.Errorf("stripe: get checkout session %s: %w", id, describe(err))
	}
	ev, err := checked(outcome(s))
	if err != nil {
		return domain.ListedSession{}, fmt.Errorf("stripe: checkout session %s: %w", id, err)
	}
	return domain.ListedSession{Created: time.Unix(s.Created, 0).UTC(), Outcome: ev}, nil
}

// outcome reads a session's state as its webhook would report it (no kind while open).
func outcome(s *stripe.CheckoutSession) domain.PaymentEvent {
	switch s.Status {
	case stripe.CheckoutSessionStatusExpired:
		return sessionEvent(domain.PaymentExpired, s)
	case stripe.CheckoutSessionStatusComplete:
		if ev := sessionEvent(domain.PaymentCompleted, s); ev.Paid || !delayedPaymentFailed(s.PaymentIntent) {
			return ev
		}
		return sessionEvent(domain.PaymentAsyncFailed, s)
	}
	ev := sessionEvent("", s)
	ev.Paid = false
	return ev
}

// delayedPaymentFailed reports whether an expanded payment intent of a session awaiting its
// payment failed: Stripe puts it back to requires_payment_method (or it was canceled). A
// payment intent not expanded (a listed session's) says nothing.
func delayedPaymentFailed(pi *stripe.PaymentIntent) bool {
	return pi != nil && (pi.Status == stripe.PaymentIntentStatusRequiresPaymentMethod || pi.Status == stripe.PaymentIntentStatusCanceled)
}
