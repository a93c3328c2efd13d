package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// paymentProviderDown answers a session whose payment provider failed.
const paymentProviderDown = "the payment provider is unavailable; nothing was charged, retry"

// SessionRequest is a checkout session request of a browser.
type SessionRequest struct {
	// Buyer sends the request; idempotency keys are scoped to its KeyID.
	Buyer Buyer
	// Body is the request body as sent, hashed to recognise a retry of the same request.
	Body []byte
	// Decode reads the purchase from Body. It is not called for a retry of bytes this process
	// saw before that is answered from its stored answer.
	Decode func() (domain.Purchase, error)
}

// sessionInput is a session request whose purchase was decoded.
type sessionInput struct {
	Buyer    Buyer
	Purchase domain.Purchase
}

// SessionResult is the answer to a session request: where to send the browser.
type SessionResult struct {
	SessionID  string     `json:"sessionId"`
	SessionURL string     `json:"sessionUrl"`
	OrderID    string     `json:"orderId,omitempty"`
	ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
	// Livemode is false for a test purchase.
	Livemode bool `json:"livemode"`
	// Replayed is true when the answer is the stored answer of an earlier request.
	Replayed bool `json:"-"`
}

// CreateSession validates and prices the purchase, holds its places through registration
// and opens a Stripe Checkout Session (or, for a zero total, records the checkout paid, which
// has registration confirm the order). With an idempotency key, the request is checked once
// (claim): the same request again returns the same answer with no second hold or Stripe call.
func (s *Service) CreateSession(ctx context.Context, r SessionRequest) (res SessionResult, err error) {
	defer func() { tagOrder(ctx, res.OrderID) }()
	if _, err := s.paymentsOf(r.Buyer.Livemode()); err != nil {
		return SessionResult{}, err // a test purchase with test mode not configured: nothing recorded
	}
	b, p, err := s.identify(r)
	if err != nil {
		return SessionResult{}, err
	}
	if b.key == "" {
		return s.runSession(ctx, sessionInput{Buyer: r.Buyer, Purchase: *p}, domain.NewCheckoutID(), nil)
	}
	c, replay, err := s.claim(ctx, r.Buyer.Principal, b)
	if err != nil || replay != nil {
		if replay != nil {
			return *replay, nil
		}
		return SessionResult{}, err
	}
	res, err = s.runClaimed(ctx, r, p, c)
	var unrecorded *unrecordedError
	if errors.As(err, &unrecorded) {
		// The hold (and its Stripe session) exist but could not be recorded: the key stays
		// RUNNING, so once its lease lapses a retry resumes this very checkout.
		return SessionResult{}, unrecorded.err
	}
	if err != nil {
		if ferr := s.repo.FailIdempotency(context.WithoutCancel(ctx), r.Buyer.KeyID, c.Livemode, b.key, c.CheckoutID); ferr != nil {
			s.log.ErrorContext(ctx, "marking an idempotency key failed did not work; its lease will lapse", "checkout_id", c.CheckoutID, "err", ferr)
		}
		return SessionResult{}, err
	}
	s.remember(r.Buyer.KeyID, c.Livemode, b.digest, res, c.ExpiresAt)
	return res, nil
}

// runClaimed runs a request that claimed its idempotency key, decoding its purchase first when
// identify did not need to (bytes seen before, whose answer is not stored).
func (s *Service) runClaimed(ctx context.Context, r SessionRequest, p *domain.Purchase, c *domain.IdempotencyRecord) (SessionResult, error) {
	if p == nil {
		decoded, err := r.Decode()
		if err != nil {
			return SessionResult{}, err
		}
		p = &decoded
	}
	return s.runSession(ctx, sessionInput{Buyer: r.Buyer, Purchase: *p}, c.CheckoutID, c)
}

// runSession runs one attempt of a session request with the checkout id given (a new one, or
// that of an interrupted attempt being resumed). idem is nil without an idempotency key. A
// promocode is refused unseen while the buyer's address or key is blocked for failing too
// many, and a code that is unknown or cannot be used counts as a failure (see admitPromocode).
func (s *Service) runSession(ctx context.Context, in sessionInput, checkoutID string, idem *domain.IdempotencyRecord) (SessionResult, error) {
	charged, err := s.admitPromocode(ctx, in.Buyer, in.Purchase.Promocode)
	if err != nil {
		return SessionResult{}, err
	}
	res, err := s.attempt(ctx, in, checkoutID, idem)
	s.settlePromocode(ctx, in.Buyer, charged, err)
	return res, err
}

// attempt runs the steps of a session request (see runSession).
func (s *Service) attempt(ctx context.Context, in sessionInput, checkoutID string, idem *domain.IdempotencyRecord) (SessionResult, error) {
	p := &in.Purchase
	ev, err := s.catalog.Event(ctx, in.Buyer.Principal, p.EventID)
	if err != nil {
		return SessionResult{}, fmt.Errorf("session: %w", err)
	}
	if err := visible(&ev, in.Buyer.Principal, p.PreviewToken); err != nil {
		return SessionResult{}, err
	}
	promo, err := s.promocode(ctx, &ev, p.Promocode, in.Buyer.Livemode(), false)
	if err != nil {
		return SessionResult{}, err
	}
	quote, err := domain.Price(&ev, p.Selections(), promo)
	if err != nil {
		return SessionResult{}, err
	}
	if err := p.Check(&ev); err != nil {
		return SessionResult{}, err
	}
	chk, err := s.createCheckout(ctx, in, checkoutID, &ev, quote, promo)
	if err != nil {
		return SessionResult{}, err
	}
	hr := p.HoldRequest(chk.ID, quote, chk.HoldExpiresAt)
	hr.ClientNetwork, hr.WaitlistOffer = in.Buyer.Network, p.WaitlistOffer
	hold, err := s.registration.Hold(ctx, in.Buyer.Principal, hr)
	if err != nil {
		// A refusal held nothing; any other failure (a timeout, a lost answer) may have held
		// the places, so the hold id is released.
		s.fail(ctx, in.Buyer.Principal, chk.ID, !refused(err))
		return SessionResult{}, fmt.Errorf("session: hold: %w", domain.InPurchaseTerms(err))
	}
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: chk.ID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.Held(hold.OrderID, hold.Tickets, s.clock.Now())
		return nil, nil
	}); err != nil {
		return SessionResult{}, fmt.Errorf("session: record hold: %w", err)
	}
	if quote.Total == 0 {
		return s.confirmFree(ctx, in, chk.ID, hold.OrderID, idem)
	}
	return s.openPayment(ctx, in, &ev, chk, quote, hold.OrderID, idem)
}

// createCheckout records the attempt and reserves its promocode use atomically.
func (s *Service) createCheckout(ctx context.Context, in sessionInput, id string, ev *domain.Event, q domain.Quote, promo *domain.Promocode) (domain.Checkout, error) {
	now := s.clock.Now()
	p := &in.Purchase
	c := domain.Checkout{
		ID: id, OrganizerID: ev.OrganizerID, Livemode: in.Buyer.Livemode(), KeyID: in.Buyer.KeyID, IdempotencyKey: p.IdempotencyKey, EventID: ev.ID,
		State: domain.StateCreated, Currency: q.Currency, Total: q.Total, Quote: q, PromoState: domain.PromoNone,
		PurchaserEmail: p.PurchaserEmail, PurchaserName: p.PurchaserName,
		LegalSignature: p.LegalSignature, IPEnrichment: p.IPEnrichment, Deferred: p.Deferred,
		HoldExpiresAt: now.Add(s.opts.HoldTTL), CreatedAt: now, UpdatedAt: now,
	}
	if promo != nil {
		c.Promocode, c.PromoState, c.PromoMaxUses = promo.Code, domain.PromoReserved, promo.MaxUses
	}
	stored, existed, err := s.repo.CreateCheckout(ctx, c)
	switch {
	case errors.Is(err, domain.ErrPromocodeExhausted):
		return domain.Checkout{}, domain.InvalidPromocode(promo.Code)
	case err != nil:
		return domain.Checkout{}, fmt.Errorf("session: %w", err)
	case existed && !stored.Resumable():
		return domain.Checkout{}, domain.ErrIdempotencyBusy
	}
	return stored, nil
}

// openPayment opens the Stripe Checkout Session; if Stripe fails, the hold is released and
// the checkout fails, so nothing is held and nothing was charged: the answer says the payment
// provider is unavailable (503 with Retry-After), and a retry with the same idempotency key
// runs again.
func (s *Service) openPayment(ctx context.Context, in sessionInput, ev *domain.Event, chk domain.Checkout, q domain.Quote, orderID string, idem *domain.IdempotencyRecord) (SessionResult, error) {
	p := &in.Purchase
	pay, err := s.paymentsOf(chk.Livemode)
	if err != nil {
		s.fail(ctx, in.Buyer.Principal, chk.ID, true)
		return SessionResult{}, err
	}
	session, err := pay.CreateSession(ctx, domain.PaymentRequest{
		CheckoutID: chk.ID, OrderID: orderID, EventID: ev.ID, OrganizerID: ev.OrganizerID, Currency: q.Currency,
		Lines: q.PaymentLines(ev.Name, p.TeamNames()), CustomerEmail: p.PurchaserEmail,
		SuccessURL: p.SuccessURL, CancelURL: p.CancelURL,
		ExpiresAt: SessionExpiry(chk.CreatedAt, chk.HoldExpiresAt), IdempotencyKey: "podium-checkout-" + chk.ID,
	})
	if err != nil {
		s.fail(ctx, in.Buyer.Principal, chk.ID, true)
		return SessionResult{}, &fault.Error{Kind: fault.Unavailable, Problems: []string{paymentProviderDown},
			Err: fmt.Errorf("session of checkout %s, order %s: %w", chk.ID, orderID, err)}
	}
	exp := session.ExpiresAt
	res := SessionResult{SessionID: session.ID, SessionURL: session.URL, OrderID: orderID, ExpiresAt: &exp, Livemode: chk.Livemode}
	return s.finish(ctx, chk.ID, res, idem, func(c *domain.Checkout) []domain.Message {
		c.Opened(session, s.clock.Now())
		return nil
	})
}

// confirmFree completes a zero-total checkout without Stripe: its answer and its
// payment.succeeded of amount 0 are recorded in one transaction, and registration confirms
// the order from that event, as it confirms a paid one.
func (s *Service) confirmFree(ctx context.Context, in sessionInput, checkoutID, orderID string, idem *domain.IdempotencyRecord) (SessionResult, error) {
	id := domain.NewFreeSessionID()
	res := SessionResult{SessionID: id, SessionURL: domain.AppendQuery(in.Purchase.SuccessURL, "session_id="+id), OrderID: orderID, Livemode: in.Buyer.Livemode()}
	return s.finish(ctx, checkoutID, res, idem, func(c *domain.Checkout) []domain.Message {
		return c.PaidFree(res.SessionID, res.SessionURL, s.clock.Now())
	})
}

// finish records the checkout's new state, the messages change returns and, with an
// idempotency key, the answer, in one transaction.
func (s *Service) finish(ctx context.Context, checkoutID string, res SessionResult, idem *domain.IdempotencyRecord, change func(*domain.Checkout) []domain.Message) (SessionResult, error) {
	u := Update{Ref: CheckoutRef{ID: checkoutID}}
	if idem != nil {
		body, err := json.Marshal(res)
		if err != nil {
			return SessionResult{}, fmt.Errorf("session: %w", err)
		}
		u.Idempotency = &IdempotencyOutcome{KeyID: idem.KeyID, Livemode: idem.Livemode, Key: idem.Key, CheckoutID: checkoutID, Response: body}
	}
	if _, _, err := s.repo.Update(ctx, u, func(c *domain.Checkout) ([]domain.Message, error) {
		return change(c), nil
	}); err != nil {
		return SessionResult{}, &unrecordedError{err: fmt.Errorf("session: record: %w", err)}
	}
	return res, nil
}

// unrecordedError is a failure to record the outcome of side effects that happened (a hold,
// with its Stripe session when there is a total to pay): the attempt must be resumed, not
// redone.
type unrecordedError struct{ err error }

func (e *unrecordedError) Error() string { return e.err.Error() }
func (e *unrecordedError) Unwrap() error { return e.err }

// fail releases the hold when there may be one (by its hold id, the checkout's id, so also a
// hold whose answer was lost) and marks the checkout FAILED, giving its promocode use back.
// Failures are logged: registration's own sweeper frees an expired hold.
func (s *Service) fail(ctx context.Context, as identity.Principal, checkoutID string, release bool) {
	ctx = context.WithoutCancel(ctx)
	if release {
		if err := s.registration.ReleaseHold(ctx, as, checkoutID, domain.ReleaseCancelled); err != nil {
			s.log.ErrorContext(ctx, "releasing a hold failed; registration frees it when it expires", "hold_id", checkoutID, "err", err)
		}
	}
	if _, _, err := s.repo.Update(ctx, Update{Ref: CheckoutRef{ID: checkoutID}}, func(c *domain.Checkout) ([]domain.Message, error) {
		c.Failed(s.clock.Now())
		return nil, nil
	}); err != nil {
		s.log.ErrorContext(ctx, "marking a checkout failed did not work", "checkout_id", checkoutID, "err", err)
	}
}

// refused reports a hold registration refused, which held nothing: places short, a rule, an
// unknown event or category, a cap on unpaid places.
func refused(err error) bool {
	switch fault.KindOf(err) {
	case fault.Conflict, fault.Unprocessable, fault.NotFound, fault.TooManyRequests:
		return true
	}
	return false
}
