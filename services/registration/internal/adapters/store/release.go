package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// ReleaseOrder releases a PENDING order; see app.Repository.
func (r *Repository) ReleaseOrder(ctx context.Context, s domain.Scope, orderID, reason string, now time.Time) (domain.Order, error) {
	var o domain.Order
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		var err error
		if o, err = lockOrder(ctx, q, s, orderID); err != nil {
			return err
		}
		return r.releaseLocked(ctx, tx, q, &o, reason, now)
	})
	if err != nil {
		return domain.Order{}, fmt.Errorf("release order: %w", err)
	}
	return o, nil
}

// releaseLocked releases the locked order o if it is PENDING; a CANCELLED or FAILED one is
// left as it is, a COMPLETED or REFUNDED one is a conflict.
func (r *Repository) releaseLocked(ctx context.Context, tx pgx.Tx, q *db.Queries, o *domain.Order, reason string, now time.Time) error {
	switch o.Status {
	case domain.OrderCancelled, domain.OrderFailed:
		return nil
	case domain.OrderCompleted, domain.OrderRefunded:
		return fault.NewConflict(fmt.Sprintf("order %s is %s and cannot be released", o.ID, o.Status))
	}
	return r.release(ctx, tx, q, o, reason, now)
}

// RefundOrder marks an order whose payment was returned REFUNDED and announces it; see
// app.Repository. A PENDING order is released first (reason FAILED), its places freed.
func (r *Repository) RefundOrder(ctx context.Context, s domain.Scope, orderID string, now time.Time) (domain.Order, error) {
	var o domain.Order
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		var err error
		if o, err = lockOrder(ctx, q, s, orderID); err != nil {
			return err
		}
		switch o.Status {
		case domain.OrderRefunded:
			return nil
		case domain.OrderCompleted:
			return fault.NewConflict(fmt.Sprintf("order %s is %s: its places are taken, so it is not refunded here", o.ID, o.Status))
		case domain.OrderPending:
			if err := r.release(ctx, tx, q, &o, domain.ReleaseFailed, now); err != nil {
				return err
			}
		}
		o.Status, o.UpdatedAt = domain.OrderRefunded, now
		if err := setOrderState(ctx, q, o); err != nil {
			return err
		}
		regs, err := r.loadRegistrations(ctx, q, o.ID)
		if err != nil {
			return err
		}
		return enqueue(ctx, tx, orderEvent(o, domain.EventOrderRefunded, domain.NewOrderRefundedEvent(o, regs, now)))
	})
	if err != nil {
		return domain.Order{}, fmt.Errorf("refund order: %w", err)
	}
	return o, nil
}

// release releases the locked PENDING order o and frees its places.
func (r *Repository) release(ctx context.Context, tx pgx.Tx, q *db.Queries, o *domain.Order, reason string, now time.Time) error {
	regs, err := r.loadRegistrations(ctx, q, o.ID)
	if err != nil {
		return err
	}
	deltas, err := cancelHold(ctx, tx, q, o, regs, reason, now)
	if err != nil {
		return err
	}
	return applyPlaces(ctx, tx, q, deltas, now)
}

// cancelHold releases the locked PENDING order o with its registrations regs: it cancels the
// live ones and their tickets, makes o CANCELLED (FAILED for reason FAILED) and writes its
// released event. It returns the ledger changes that free o's held places, for the caller to
// apply (with its own, in one pass over the ledger rows).
func cancelHold(ctx context.Context, tx pgx.Tx, q *db.Queries, o *domain.Order, regs []domain.Registration, reason string, now time.Time) ([]domain.PlaceDelta, error) {
	deltas := placeDeltas(liveRegistrations(regs), domain.OrderPending, -1)
	o.Status = domain.OrderCancelled
	if reason == domain.ReleaseFailed {
		o.Status = domain.OrderFailed
	}
	o.ReleasedAt, o.ReleaseReason, o.UpdatedAt = &now, reason, now
	if err := q.SetRegistrationsCancelled(ctx, db.SetRegistrationsCancelledParams{OrderID: o.ID, CancelledAt: &now, UpdatedAt: now}); err != nil {
		return nil, err
	}
	if err := q.SetTicketsCancelledByOrder(ctx, db.SetTicketsCancelledByOrderParams{OrderID: o.ID, CancelledAt: &now, OrderStatus: string(o.Status)}); err != nil {
		return nil, err
	}
	if err := setOrderState(ctx, q, *o); err != nil {
		return nil, err
	}
	return deltas, enqueue(ctx, tx, orderEvent(*o, domain.EventOrderReleased, domain.NewOrderReleasedEvent(*o, regs, reason, now)))
}
