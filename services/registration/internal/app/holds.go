package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/clock"
	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// HoldInput is checkout's request to hold places (POST /internal/holds).
type HoldInput struct {
	HoldID         string
	EventID        string
	ExpiresAt      time.Time
	Currency       string
	Amount         int64
	PurchaserEmail string
	PurchaserName  string
	Promocode      string
	// ClientNetwork is the network the buyer came from (empty when the caller does not know).
	ClientNetwork string
	// WaitlistOffer is the secret of a waitlist offer whose held place the first registration
	// takes (empty for a purchase without one).
	WaitlistOffer string
	Registrations []domain.RegistrationInput
}

// Hold is a held order with its registrations; Existing is true when the hold id was seen.
type Hold struct {
	Order         domain.Order
	Registrations []domain.Registration
	Existing      bool
}

// CreateHold creates a PENDING order of the caller's organizer with its registrations and holds their
// places until ExpiresAt, all or nothing; the same hold id again returns the same order. The
// places held and not yet paid for from the client network in the event stay within its cap
// (too many requests otherwise); for the purchaser e-mail, its oldest unpaid
// holds are released to make room (see domain.HoldLimits.Admit).
func (s *Service) CreateHold(ctx context.Context, caller identity.Principal, in HoldInput) (Hold, error) {
	if err := checkHold(in); err != nil {
		return Hold{}, err
	}
	organizerID, scope := caller.OrganizerID, scopeOf(caller)
	e, err := s.event(ctx, caller, in.EventID)
	if err != nil {
		return Hold{}, err
	}
	if o, regs, err := s.repo.OrderByHold(ctx, scope, in.HoldID); err == nil {
		return Hold{Order: o, Registrations: regs, Existing: true}, nil
	} else if !isNotFound(err) {
		return Hold{}, fmt.Errorf("create hold: %w", err)
	}
	var rules fault.Problems
	quotas := map[string]*int{}
	cats := make([]domain.Category, len(in.Registrations))
	for i, r := range in.Registrations {
		prefix := fmt.Sprintf("registrations[%d].", i)
		c, ok := e.Category(r.CategoryID)
		if !ok {
			return Hold{}, fault.NewNotFound(fmt.Sprintf("category %s in event %s", r.CategoryID, e.ID))
		}
		cats[i], quotas[c.ID] = c, c.Quota
		rules = append(rules, problemsOf(domain.CheckEligibility(prefix, e, c, r))...)
	}
	if err := rules.Err(fault.Unprocessable); err != nil {
		return Hold{}, err
	}
	now := s.clock.Now()
	exp := clock.Stored(in.ExpiresAt)
	o := domain.Order{
		ID: domain.NewOrderID(), OrganizerID: organizerID, EventID: e.ID, Status: domain.OrderPending,
		Source: domain.SourceCheckout, HoldID: in.HoldID, Amount: in.Amount, Currency: strings.ToUpper(in.Currency),
		PurchaserEmail: in.PurchaserEmail, PurchaserName: in.PurchaserName, Promocode: in.Promocode,
		ClientNetwork: in.ClientNetwork, ExpiresAt: &exp, Livemode: caller.Livemode(), CreatedAt: now, UpdatedAt: now,
	}
	if o.Currency == "" {
		o.Currency = e.Currency
	}
	regs := make([]domain.Registration, len(in.Registrations))
	for i, r := range in.Registrations {
		regs[i] = domain.NewRegistration(o, e, cats[i], r, now)
	}
	if err := s.repo.CreateHold(ctx, o, regs, quotas, s.opts.HoldLimits, in.WaitlistOffer); err != nil {
		return s.raced(ctx, scope, in.HoldID, err)
	}
	return Hold{Order: o, Registrations: regs}, nil
}

// raced answers a hold that could not be stored: when a concurrent request with the same hold
// id stored its order first (the insert clashed, or the caps counted that order's places),
// with that order; otherwise with err.
func (s *Service) raced(ctx context.Context, scope domain.Scope, holdID string, err error) (Hold, error) {
	limited := errors.Is(err, fault.ErrTooManyRequests)
	if !domain.IsDuplicateHold(err) && !limited {
		return Hold{}, fmt.Errorf("create hold: %w", err)
	}
	o, regs, lookupErr := s.repo.OrderByHold(ctx, scope, holdID)
	switch {
	case lookupErr == nil:
		return Hold{Order: o, Registrations: regs, Existing: true}, nil
	case limited && isNotFound(lookupErr):
		return Hold{}, err
	}
	return Hold{}, fmt.Errorf("create hold: %w", lookupErr)
}

func checkHold(in HoldInput) error {
	var p fault.Problems
	if in.HoldID == "" {
		p.Add("holdId is required")
	}
	if in.EventID == "" {
		p.Add("eventId is required")
	}
	if in.ExpiresAt.IsZero() {
		p.Add("expiresAt is required (RFC 3339)")
	}
	if in.Amount < 0 {
		p.Add("amount must be at least 0")
	}
	if len(in.Registrations) == 0 {
		p.Add("registrations must have at least 1 item")
	}
	for i, r := range in.Registrations {
		p = append(p, problemsOf(domain.CheckShape(fmt.Sprintf("registrations[%d].", i), r))...)
	}
	return p.Err(fault.Invalid)
}

// problemsOf returns the problems a check reported (none for nil).
func problemsOf(err error) []string {
	if f, ok := fault.Of(err); ok {
		return f.Problems
	}
	return nil
}

// SweepExpired releases up to limit holds whose expiry passed, reason EXPIRED, and returns
// how many it released.
func (s *Service) SweepExpired(ctx context.Context, limit int) (int, error) {
	holds, err := s.repo.ExpiredHolds(ctx, s.clock.Now(), limit)
	if err != nil {
		return 0, fmt.Errorf("sweep holds: %w", err)
	}
	n := 0
	for _, h := range holds {
		if _, err := s.repo.ReleaseOrder(ctx, domain.Scope{Livemode: h.Livemode}, h.OrderID, domain.ReleaseExpired, s.clock.Now()); err != nil {
			if isConflict(err) { // paid meanwhile
				continue
			}
			return n, fmt.Errorf("sweep holds: %w", err)
		}
		n++
	}
	if n > 0 {
		s.Nudge()
	}
	return n, nil
}

// Payment is a payment event from checkout.
type Payment struct {
	// MessageID is the event's ce_id, for the inbox.
	MessageID  string
	Type       string
	OrderID    string
	PaymentRef string
	Amount     *int64
	Reason     string
	// Test is true for a test payment (livemode false): its order is a test order.
	Test bool
	// Refund is the refund an organizer made (refund.succeeded).
	Refund domain.RefundMade
}

// ApplyPayment confirms (payment succeeded), releases (payment failed) or marks refunded
// (payment returned; released first if still PENDING; or an organizer's refund made, whole or
// partial, cancelling the tickets it names) the order, once per message id. A late
// payment without a place leaves the order FAILED and publishes the unfulfillable event; that
// is an outcome, not an error.
func (s *Service) ApplyPayment(ctx context.Context, p Payment) error {
	scope := domain.Scope{Livemode: !p.Test} // the order is looked up in its own mode only
	_, err := s.repo.Once(ctx, domain.PaymentsConsumerGroup, p.MessageID, func(r Repository) error {
		switch p.Type {
		case domain.EventPaymentSucceeded:
			_, _, err := r.ConfirmOrder(ctx, scope, p.OrderID, p.PaymentRef, p.Amount, s.clock.Now())
			if isConflict(err) || isNotFound(err) {
				return nil
			}
			return err
		case domain.EventPaymentFailed:
			reason := domain.ReleaseFailed
			if p.Reason == domain.ReleaseExpired {
				reason = domain.ReleaseExpired
			}
			_, err := r.ReleaseOrder(ctx, scope, p.OrderID, reason, s.clock.Now())
			if isConflict(err) || isNotFound(err) { // already paid, or not ours
				return nil
			}
			return err
		case domain.EventRefundSucceeded:
			// An organizer's refund: an order not paid (or not this mode's) has nothing to mark.
			_, err := r.RecordRefund(ctx, scope, p.Refund, s.clock.Now())
			if isConflict(err) || isNotFound(err) {
				return nil
			}
			return err
		case domain.EventPaymentRefunded:
			// Checkout refunds a late payment registration found no place for (the order is
			// FAILED), or whose limited promocode was used up (the order may still be PENDING).
			_, err := r.RefundOrder(ctx, scope, p.OrderID, s.clock.Now())
			if isConflict(err) || isNotFound(err) {
				return nil
			}
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("apply payment %s: %w", p.MessageID, err)
	}
	if p.Type != domain.EventPaymentSucceeded {
		s.Nudge()
	}
	return nil
}

func isNotFound(err error) bool { return errors.Is(err, fault.ErrNotFound) }

func isConflict(err error) bool { return errors.Is(err, fault.ErrConflict) }

// RunSweeper releases expired holds, forgets hold ids released a day ago and deletes test mail
// kept for domain.TestMailKeep every interval
// until ctx is done; failures are logged and retried on the next tick.
func (s *Service) RunSweeper(ctx context.Context, interval time.Duration, log interface {
	ErrorContext(ctx context.Context, msg string, args ...any)
}) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		for {
			n, err := s.SweepExpired(ctx, 100)
			if err != nil {
				if ctx.Err() == nil {
					log.ErrorContext(ctx, "hold sweep failed; retrying on the next tick", "err", err)
				}
				break
			}
			if n < 100 {
				break
			}
		}
		if err := s.pruneReleasedHolds(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "pruning released hold ids failed; retrying on the next tick", "err", err)
		}
		if _, err := s.PruneTestMail(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "pruning test mail failed; retrying on the next tick", "err", err)
		}
	}
}
