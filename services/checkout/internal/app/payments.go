package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// WebhookResult says what a webhook did.
type WebhookResult string

// Webhook results, also reported to Stripe in the answer body.
const (
	// WebhookOutcomeApplied: the payment outcome the event reports changed its checkout.
	WebhookOutcomeApplied WebhookResult = "applied"
	// WebhookAlreadySettled: the event was handled before, or its checkout had the outcome
	// already; nothing changed.
	WebhookAlreadySettled WebhookResult = "duplicate"
	// WebhookUnknownSession: the event names no checkout known, and is acknowledged.
	WebhookUnknownSession WebhookResult = "unknown-session"
	// WebhookTypeIgnored: checkout does not act on events of its type.
	WebhookTypeIgnored WebhookResult = "ignored"
	// WebhookDeliverAgain: the event names a checkout not known (yet) and is recent: the
	// answer asks Stripe to deliver it again (503), and nothing was recorded.
	WebhookDeliverAgain WebhookResult = "retry"
)

// HandleStripeWebhook verifies a Stripe webhook and settles the outcome it reports once (see
// settlePayment; the inbox dedupes by Stripe event id). Events of other types are
// acknowledged and change nothing; an event about a checkout not known is answered by
// unknownSession.
func (s *Service) HandleStripeWebhook(ctx context.Context, payload []byte, signature string) (WebhookResult, error) {
	ev, err := s.parseWebhook(payload, signature)
	if err != nil {
		return "", err
	}
	if !ev.Handled() {
		return WebhookTypeIgnored, nil
	}
	u := Update{Ref: CheckoutRef{ID: ev.CheckoutID, SessionID: ev.SessionID, Livemode: Mode(ev.Livemode)}, Consumer: ConsumerStripe, MessageID: ev.ID}
	if !ev.Livemode {
		u.Consumer = TestStripeConsumer(ev.OrganizerID)
	}
	st, err := s.settlePayment(ctx, ev, u)
	if err != nil {
		return "", fmt.Errorf("webhook %s: %w", ev.Kind, err)
	}
	tagOrder(ctx, st.checkout.OrderID)
	switch {
	case st.outcome == CheckoutNotKnown:
		return s.unknownSession(ctx, ev), nil
	case st.outcome == MessageAlreadyProcessed || st.already:
		return WebhookAlreadySettled, nil
	}
	s.log.InfoContext(ctx, "Stripe webhook applied", "stripe_event_id", ev.ID, "type", string(ev.Kind), "checkout_id", st.checkout.ID, "state", string(st.checkout.State))
	return WebhookOutcomeApplied, nil
}

// parseWebhook verifies a webhook with the secret of the mode its payload claims (Stripe's
// unverified livemode, true when absent) and no other: a test event signed with the live
// secret, or a live one signed with the test secret, is refused as a wrong signature. The
// event is then data of that mode (PaymentEvent.Livemode). Without test credentials every
// event is verified with the live secret and is live data, as before test mode existed.
func (s *Service) parseWebhook(payload []byte, signature string) (domain.PaymentEvent, error) {
	pay, livemode := s.payments, true
	if !claimsLivemode(payload) && s.opts.TestPayments != nil {
		pay, livemode = s.opts.TestPayments, false
	}
	ev, err := pay.ParseWebhook(payload, signature)
	ev.Livemode = livemode
	return ev, err
}

// claimsLivemode reads the livemode a Stripe event's payload claims, before its signature is
// verified: true unless it says false.
func claimsLivemode(payload []byte) bool {
	var claim struct {
		Livemode *bool `json:"livemode"`
	}
	if json.Unmarshal(payload, &claim) != nil || claim.Livemode == nil {
		return true
	}
	return *claim.Livemode
}

// TestStripeConsumer is the inbox consumer of an organizer's test-mode Stripe events, so
// that the wipe of its test data finds them.
func TestStripeConsumer(organizerID string) string { return ConsumerStripe + "-test:" + organizerID }

// unknownSession answers a webhook about a checkout not known. Checkout records a checkout
// before it asks Stripe for its session, so a session of checkout's own (its metadata names
// a checkout) that is not found may not be readable yet (a database failed over, a replica
// behind): while the event is younger than Options.UnknownRetryWindow, nothing is recorded and
// Stripe is asked to deliver it again (WebhookDeliverAgain, 503); reconciliation settles the
// session if the deliveries end first and the checkout is readable when it lists the session
// (it passes a session whose checkout it does not find). Beyond that window, or for a session
// that names no checkout (another system's on the same Stripe account), the event is
// acknowledged. Both are counted and logged with ids only.
func (s *Service) unknownSession(ctx context.Context, ev domain.PaymentEvent) WebhookResult {
	age := s.clock.Now().Sub(ev.Created)
	attrs := []any{"stripe_event_id", ev.ID, "type", string(ev.Kind), "session_id", ev.SessionID, "checkout_id", ev.CheckoutID, "event_age", age.Round(time.Second).String()}
	if ev.CheckoutID != "" && age < s.opts.UnknownRetryWindow {
		unknownWebhooks.Add(ctx, 1, outcomeRetried)
		s.log.WarnContext(ctx, "Stripe webhook for a checkout not known yet; answered 503 for Stripe to deliver it again", attrs...)
		return WebhookDeliverAgain
	}
	unknownWebhooks.Add(ctx, 1, outcomeAcknowledged)
	s.log.WarnContext(ctx, "Stripe webhook for a checkout not known; acknowledged", attrs...)
	return WebhookUnknownSession
}

// settled is what settlePayment did.
type settled struct {
	checkout domain.Checkout
	outcome  Outcome
	// already is true when the checkout had the event's outcome already (a webhook after
	// reconciliation settled it, or another event of the same payment): nothing changed.
	already bool
}

// settlePayment applies a payment outcome, a webhook's or one reconciliation read from
// Stripe, with u's inbox part: the checkout's new state and the payment event for
// registration in one transaction, in any order and any number of times (the checkout's
// state machine makes every repetition a no-op). A payment after the hold lapsed whose
// limited promocode has no use left is refunded instead: its change is rolled back and the
// refund decided in a second transaction with the same inbox record; the refund worker makes
// it, so nothing here waits on Stripe.
func (s *Service) settlePayment(ctx context.Context, ev domain.PaymentEvent, u Update) (settled, error) {
	now := s.clock.Now()
	var st settled
	var err error
	st.checkout, st.outcome, err = s.repo.Update(ctx, u, func(c *domain.Checkout) ([]domain.Message, error) {
		st.already = c.HasOutcome(ev)
		return c.ApplyPayment(ev, now), nil
	})
	failed := false
	if errors.Is(err, domain.ErrPromocodeExhausted) {
		st.checkout, st.outcome, err = s.repo.Update(ctx, u, func(c *domain.Checkout) ([]domain.Message, error) {
			st.already = c.HasOutcome(ev)
			before := c.State
			c.RefundNoPromocode(ev, now)
			failed = before != c.State && c.State == domain.StateRefundFailed
			return nil, nil
		})
	}
	if err != nil {
		return settled{}, err
	}
	s.refundChanged(ctx, st.checkout, failed)
	return st, nil
}

// refundChanged follows a decision about a refund just committed: a refund pending wakes the
// refund worker; one that failed at once (failed: no payment to refund) is counted and
// logged.
func (s *Service) refundChanged(ctx context.Context, c domain.Checkout, failed bool) {
	switch {
	case c.RefundPending():
		s.refundDecided()
	case failed:
		s.refundFailed(ctx, c)
	}
}

// HandleOrderEvent applies an event of registration.orders.v1 once (the inbox dedupes by
// message id). An unfulfillable order (paid after its hold lapsed, no place left) is refunded
// in full: the refund is decided in the event's transaction, which is all the message waits
// for; the refund worker makes it, so one refund Stripe refuses or delays never holds back the
// order events behind it, and one with no payment to refund is REFUND_FAILED at once, for an
// operator. Events of orders checkout did not create are recorded and ignored.
func (s *Service) HandleOrderEvent(ctx context.Context, messageID string, e domain.OrderEvent) error {
	switch e.Type {
	case domain.EventOrderCompleted, domain.EventOrderReleased, domain.EventOrderUnfulfillable:
	default:
		return nil
	}
	if e.OrderID == "" {
		return errors.New("order event without orderId")
	}
	now := s.clock.Now()
	u := Update{Ref: CheckoutRef{OrderID: e.OrderID}, Consumer: ConsumerOrders, MessageID: messageID, RecordUnknown: true}
	failed := false
	c, _, err := s.repo.Update(ctx, u, func(c *domain.Checkout) ([]domain.Message, error) {
		if e.Type == domain.EventOrderUnfulfillable {
			before := c.State
			c.RefundNoPlace(e, now)
			failed = before != c.State && c.State == domain.StateRefundFailed
			return nil, nil
		}
		c.ApplyOrder(e, now)
		return nil, nil
	})
	if err != nil {
		return fmt.Errorf("order event %s: %w", e.Type, err)
	}
	s.refundChanged(ctx, c, failed)
	return nil
}
