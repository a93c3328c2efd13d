package app

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/ids"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// RefundDecision is a refund to decide in one transaction (Repository.DecideRefund): the
// organizer's order, the idempotency record to make for the client's key (its OrganizerID
// and Livemode pick the order's checkout too), and Decide, run on the order's checkout locked.
type RefundDecision struct {
	Key     domain.IdempotencyRecord
	OrderID string
	Decide  func(domain.Refundable) (domain.OrderRefund, error)
}

// RefundResult is a refund as it now is, and whether the request replayed an earlier one.
type RefundResult struct {
	Refund   domain.OrderRefund
	Replayed bool
}

// idempotencyKeyPattern is what an Idempotency-Key header may hold.
var idempotencyKeyPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{8,120}$`)

// RequestRefund decides the refund an organizer asks for with a secret key, once per
// idempotency key: a key used before with the same body answers its refund as it now is
// (Replayed), with another body domain.ErrIdempotencyMismatch. A refund refused (not found, not
// paid, too much) records nothing, so the key can be used again. The refund is made by the
// refund worker, woken now.
func (s *Service) RequestRefund(ctx context.Context, as identity.Principal, key string, body []byte, req domain.RefundRequest) (RefundResult, error) {
	if !idempotencyKeyPattern.MatchString(key) {
		return RefundResult{}, domain.ErrIdempotencyKeyRequired
	}
	if req.OrderID == "" && len(req.TicketIDs) == 0 {
		return RefundResult{}, domain.ErrRefundNamesNothing
	}
	hash, err := domain.RequestHash(body)
	if err != nil {
		return RefundResult{}, err
	}
	if res, found, err := s.replayRefund(ctx, as, key, hash); found || err != nil {
		return res, err
	}
	now := s.clock.Now()
	if err := s.orderOfTickets(ctx, as, &req); err != nil {
		return RefundResult{}, err
	}
	refund, taken, err := s.repo.DecideRefund(ctx, RefundDecision{
		Key: domain.IdempotencyRecord{KeyID: as.KeyID, Livemode: as.Livemode(), OrganizerID: as.OrganizerID, Key: key, RequestHash: hash,
			LockedUntil: now, ExpiresAt: now.Add(s.opts.Retention)},
		OrderID: req.OrderID,
		Decide: func(r domain.Refundable) (domain.OrderRefund, error) {
			return domain.DecideRefund(r, req, ids.New("rfd_"), now)
		},
	})
	if err != nil {
		return RefundResult{}, err
	}
	if taken { // a request with the key decided meanwhile
		res, _, err := s.replayRefund(ctx, as, key, hash)
		return res, err
	}
	s.refundDecided()
	return RefundResult{Refund: refund}, nil
}

// replayRefund answers a key used before: its refund as it now is, or the mismatch.
func (s *Service) replayRefund(ctx context.Context, as identity.Principal, key string, hash []byte) (RefundResult, bool, error) {
	rec, found, err := s.repo.Idempotency(ctx, as.KeyID, as.Livemode(), key)
	if err != nil || !found {
		return RefundResult{}, false, err
	}
	if !rec.Matches(hash) {
		return RefundResult{}, true, domain.ErrIdempotencyMismatch
	}
	refund, err := s.repo.OrderRefund(ctx, as.OrganizerID, as.Livemode(), string(rec.Response))
	if err != nil {
		return RefundResult{}, true, fmt.Errorf("refund of idempotency key: %w", err)
	}
	return RefundResult{Refund: refund, Replayed: true}, true, nil
}

// orderOfTickets makes the order of the tickets req names req's order: tickets of one of the
// organizer's paid orders of the key's mode (domain.ErrOrderNotFound otherwise; an orderId
// given must be theirs).
func (s *Service) orderOfTickets(ctx context.Context, as identity.Principal, req *domain.RefundRequest) error {
	if len(req.TicketIDs) == 0 {
		return nil
	}
	req.TicketIDs = slices.Compact(slices.Sorted(slices.Values(req.TicketIDs)))
	orderID, err := s.repo.OrderOfTickets(ctx, as.OrganizerID, as.Livemode(), req.TicketIDs)
	if err != nil {
		return err
	}
	if req.OrderID != "" && req.OrderID != orderID {
		return domain.ErrOrderNotFound
	}
	req.OrderID = orderID
	return nil
}

// OrderRefund returns one of the organizer's refunds, of the key's mode.
func (s *Service) OrderRefund(ctx context.Context, as identity.Principal, id string) (domain.OrderRefund, error) {
	return s.repo.OrderRefund(ctx, as.OrganizerID, as.Livemode(), id)
}

// OrderRefunds lists the refunds of one of the organizer's orders, of the key's mode.
func (s *Service) OrderRefunds(ctx context.Context, as identity.Principal, orderID string, limit, offset int) ([]domain.OrderRefund, int, error) {
	return s.repo.OrderRefunds(ctx, as.OrganizerID, as.Livemode(), orderID, limit, offset)
}
