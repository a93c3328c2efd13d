package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// WebhookResult says what a webhook did.
type WebhookResult string

// Webhook results, also reported to Stripe in the answer body.
const (
	WebhookApplied   WebhookResult = "applied"
	WebhookDuplicate WebhookResult = "duplicate"
	WebhookUnknown   WebhookResult = "unknown-session"
	WebhookIgnored   WebhookResult = "ignored"
)

// HandleStripeWebhook verifies a Stripe webhook and applies it once (the inbox dedupes by
// Stripe event id): the checkout's new state and the payment event for registration are
// written in one transaction. Events of other types, and of sessions checkout does not know,
// are acknowledged and change nothing. A payment after the hold lapsed whose limited promocode
// has no use left is refunded (see refundPromocodeUsedUp).
func (s *Service) HandleStripeWebhook(ctx context.Context, payload []byte, signature string) (WebhookResult, error) {
	ev, err := s.payments.ParseWebhook(payload, signature)
	if err != nil {
		return "", err
	}
	if !ev.Handled() {
		return WebhookIgnored, nil
	}
	now := s.clock()
	u := Update{Ref: CheckoutRef{ID: ev.CheckoutID, SessionID: ev.SessionID}, Consumer: ConsumerStripe, MessageID: ev.ID}
	c, outcome, err := s.repo.Update(ctx, u, func(c *domain.Checkout) ([]domain.Message, error) {
		return c.ApplyPayment(ev, now), nil
	})
	usedUp := errors.Is(err, domain.ErrPromocodeExhausted)
	if usedUp {
		c, outcome, err = s.repo.Update(ctx, u, func(c *domain.Checkout) ([]domain.Message, error) {
			return s.refundPromocodeUsedUp(ctx, c, ev, now)
		})
	}
	if err != nil {
		return "", fmt.Errorf("webhook %s: %w", ev.Kind, err)
	}
	switch outcome {
	case Duplicate:
		return WebhookDuplicate, nil
	case Unknown:
		s.log.WarnContext(ctx, "Stripe webhook for a session checkout does not know; acknowledged",
			"stripe_event_id", ev.ID, "type", string(ev.Kind), "session_id", ev.SessionID, "checkout_id", ev.CheckoutID)
		return WebhookUnknown, nil
	}
	if usedUp && c.State == domain.StateRefundedNoPromocode {
		s.log.WarnContext(ctx, "late payment found its promocode's uses all taken: payment refunded",
			"stripe_event_id", ev.ID, "checkout_id", c.ID, "order_id", c.OrderID, "refund_id", c.RefundID)
	}
	s.log.InfoContext(ctx, "Stripe webhook applied", "stripe_event_id", ev.ID, "type", string(ev.Kind), "checkout_id", c.ID, "state", string(c.State))
	return WebhookApplied, nil
}

// refundPromocodeUsedUp refunds in full, through Stripe, a payment that arrived after its
// hold lapsed when its limited promocode had no use left (others took the uses the lapsed
// hold gave back), as a late payment with no place left is refunded: idempotency key
// podium-refund-<orderId>, REFUNDED_NO_PROMOCODE, payment.refunded for registration. A failed
// refund fails the webhook, which Stripe delivers again.
func (s *Service) refundPromocodeUsedUp(ctx context.Context, c *domain.Checkout, ev domain.PaymentEvent, now time.Time) ([]domain.Message, error) {
	if c.PaidOrBeyond() { // a delivery of the same payment settled it meanwhile
		return nil, nil
	}
	pi := c.LatePaymentIntent(ev)
	if pi == "" {
		return nil, fmt.Errorf("checkout %s: no payment to refund", c.ID)
	}
	id, err := s.payments.Refund(ctx, pi, "podium-refund-"+c.OrderID, map[string]string{
		"orderId": c.OrderID, "checkoutId": c.ID, "organizerId": c.OrganizerID, "eventId": c.EventID, "reason": domain.ReasonPromocodeUsedUp,
	})
	if err != nil {
		return nil, fmt.Errorf("refund: %w", err)
	}
	return c.RefundedNoPromocode(ev, id, now), nil
}

// HandleOrderEvent applies an event of registration.orders.v1 once (the inbox dedupes by
// message id). An unfulfillable order (paid after its hold lapsed, no place left) is refunded
// in full through Stripe, with an idempotency key derived from the order id, flagged
// REFUNDED_NO_PLACE, and registration is told so the order reads REFUNDED; a failed refund
// fails the message, which the consumer retries.
func (s *Service) HandleOrderEvent(ctx context.Context, messageID string, e domain.OrderEvent) error {
	switch e.Type {
	case domain.EventOrderCompleted, domain.EventOrderReleased, domain.EventOrderUnfulfillable:
	default:
		return nil
	}
	if e.OrderID == "" {
		return errors.New("order event without orderId")
	}
	now := s.clock()
	c, outcome, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{OrderID: e.OrderID}, Consumer: ConsumerOrders, MessageID: messageID},
		func(c *domain.Checkout) ([]domain.Message, error) {
			if e.Type == domain.EventOrderUnfulfillable {
				return s.refund(ctx, c, e, now)
			}
			c.ApplyOrder(e, now)
			return nil, nil
		})
	if err != nil {
		return fmt.Errorf("order event %s: %w", e.Type, err)
	}
	if outcome == Applied && e.Type == domain.EventOrderUnfulfillable {
		s.log.WarnContext(ctx, "paid order had no place left: payment refunded", "checkout_id", c.ID, "order_id", c.OrderID, "refund_id", c.RefundID)
	}
	return nil
}

func (s *Service) refund(ctx context.Context, c *domain.Checkout, e domain.OrderEvent, now time.Time) ([]domain.Message, error) {
	if !c.NeedsRefund() {
		return nil, nil
	}
	refundID := ""
	if c.Total > 0 {
		pi := c.RefundPaymentIntent(e)
		if pi == "" {
			return nil, fmt.Errorf("checkout %s: no payment to refund", c.ID)
		}
		id, err := s.payments.Refund(ctx, pi, "podium-refund-"+c.OrderID, map[string]string{
			"orderId": c.OrderID, "checkoutId": c.ID, "organizerId": c.OrganizerID, "eventId": c.EventID, "reason": e.Reason,
		})
		if err != nil {
			return nil, fmt.Errorf("refund: %w", err)
		}
		refundID = id
	}
	return c.RefundedNoPlace(refundID, now), nil
}

// Sweep deletes idempotency records past their retention, fails checkouts left CREATED
// longer than a hold lives (their process died before holding; their promocode use is given
// back) and prunes the inbox and the promocode failures forgiven.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.clock()
	if _, err := s.repo.DeleteExpiredIdempotency(ctx, now); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	ids, err := s.repo.StaleCheckouts(ctx, now.Add(-s.opts.HoldTTL))
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	for _, id := range ids {
		if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: id}}, func(c *domain.Checkout) ([]domain.Message, error) {
			c.Failed(now)
			return nil, nil
		}); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	if _, err := s.repo.PruneInbox(ctx, inboxKeep); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	if _, err := s.repo.PrunePromocodeFailures(ctx, now); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return nil
}

// RunSweeper sweeps every interval until ctx is done.
func (s *Service) RunSweeper(ctx context.Context, interval time.Duration) error {
	for {
		if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "sweep failed; retrying at the next interval", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}
