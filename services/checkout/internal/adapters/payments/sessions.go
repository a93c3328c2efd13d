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

// RecentSessions lists the Checkout Sessions created since (created[gte]), every page, and
// returns the outcome of each whose outcome is known: complete and paid (or needing no
// payment) as checkout.session.completed, expired as checkout.session.expired. Sessions still
// open, and completed ones awaiting a delayed payment, are left to their webhooks.
func (c *Client) RecentSessions(ctx context.Context, since time.Time) ([]domain.PaymentEvent, error) {
	params := &stripe.CheckoutSessionListParams{CreatedRange: &stripe.RangeQueryParams{GreaterThanOrEqual: since.Unix()}}
	params.Limit = stripe.Int64(listPage)
	params.Context = ctx
	var out []domain.PaymentEvent
	it := c.api.CheckoutSessions.List(params)
	for it.Next() {
		if ev, ok := outcome(it.CheckoutSession()); ok {
			out = append(out, ev)
		}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("stripe: list checkout sessions: %w", describe(err))
	}
	return out, nil
}

// outcome is the settled outcome of a listed session, if it has one.
func outcome(s *stripe.CheckoutSession) (domain.PaymentEvent, bool) {
	switch s.Status {
	case stripe.CheckoutSessionStatusExpired:
		return sessionEvent(domain.PaymentExpired, s), true
	case stripe.CheckoutSessionStatusComplete:
		ev := sessionEvent(domain.PaymentCompleted, s)
		return ev, ev.Paid
	}
	return domain.PaymentEvent{}, false
}
