package app

import (
	"context"
	"fmt"

	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// FailedRefunds lists the refunds that failed for good (REFUND_FAILED: refused by the payment
// provider, or with no payment to refund), the oldest failure first, with the code and
// message: what an operator looks at.
func (s *Service) FailedRefunds(ctx context.Context) ([]domain.Checkout, error) {
	return s.repo.FailedRefunds(ctx)
}

// RetryRefund moves a refund that failed for good back to REFUND_PENDING, due at once, once an
// operator fixed the cause: a refund worker then reads the payment's refunds and records the
// one that returns it, or asks for the refund with a new idempotency key (the provider keeps
// its first answer to the old one). paymentIntent, when not empty, names the payment to refund
// (required when the checkout records none). A checkout not found is
// domain.ErrCheckoutNotFound; one in another state, or still without a payment, is a conflict,
// and left as it is.
func (s *Service) RetryRefund(ctx context.Context, checkoutID, paymentIntent string) (domain.Checkout, error) {
	now := s.clock.Now()
	c, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: checkoutID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		return nil, c.RetryRefund(now, paymentIntent)
	})
	if err != nil {
		return domain.Checkout{}, fmt.Errorf("retry refund of checkout %s: %w", checkoutID, err)
	}
	s.refundDecided()
	return c, nil
}

// ResolveRefund records that the payment of a refund that failed for good was returned outside
// checkout, with reference (domain.Checkout.ResolveRefund): the refunded state and
// payment.refunded, in one transaction. A checkout not found is domain.ErrCheckoutNotFound; one
// in another state, or a reference refused, is a conflict, and left as it is.
func (s *Service) ResolveRefund(ctx context.Context, checkoutID, reference string) (domain.Checkout, error) {
	now := s.clock.Now()
	c, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: checkoutID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		return c.ResolveRefund(reference, now)
	})
	if err != nil {
		return domain.Checkout{}, fmt.Errorf("resolve refund of checkout %s: %w", checkoutID, err)
	}
	s.log.WarnContext(ctx, "an operator recorded a refund made outside checkout",
		"checkout_id", c.ID, "order_id", c.OrderID, "refund_id", c.RefundID)
	return c, nil
}
