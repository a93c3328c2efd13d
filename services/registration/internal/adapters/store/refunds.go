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

// RecordRefund applies a refund checkout made of a paid order in one transaction: the
// registrations holding the tickets it cancels are cancelled and free their places (all the
// order's when it names none), what the refunds return in all is recorded, the order becomes
// REFUNDED when that is the whole payment, and order.refunded tells the order as it now is.
// An order not paid (PENDING, FAILED, CANCELLED) is a conflict; the consumer retries nothing.
func (r *Repository) RecordRefund(ctx context.Context, s domain.Scope, rf domain.RefundMade, now time.Time) (domain.Order, error) {
	var o domain.Order
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		var err error
		if o, err = lockOrder(ctx, q, s, rf.OrderID); err != nil {
			return err
		}
		if o.Status != domain.OrderCompleted && o.Status != domain.OrderRefunded {
			return fault.NewConflict(fmt.Sprintf("order %s is %s: only a paid order is refunded", o.ID, o.Status))
		}
		regs, err := r.loadRegistrations(ctx, q, o.ID)
		if err != nil {
			return err
		}
		if rf.CancelTickets {
			for _, reg := range regs {
				if reg.Cancelled() || !rf.Names(reg) {
					continue
				}
				if err := cancelRegistration(ctx, tx, q, o, reg, now); err != nil {
					return err
				}
				if len(reg.Tickets) == 0 {
					continue
				}
				if err := announceCancelled(ctx, tx, q, domain.Scope{OrganizerID: o.OrganizerID, Livemode: o.Livemode}, reg.Tickets[0].ID, now); err != nil {
					return err
				}
			}
		}
		if err := q.SetOrderRefunded(ctx, db.SetOrderRefundedParams{ID: o.ID, AmountRefunded: rf.AmountRefunded, UpdatedAt: now}); err != nil {
			return fmt.Errorf("set order refunded: %w", err)
		}
		o.AmountRefunded, o.UpdatedAt = max(o.AmountRefunded, rf.AmountRefunded), now
		if rf.OrderRefunded && o.Status == domain.OrderCompleted {
			o.Status = domain.OrderRefunded
			if err := setOrderState(ctx, q, o); err != nil {
				return err
			}
		}
		if regs, err = r.loadRegistrations(ctx, q, o.ID); err != nil {
			return err
		}
		return enqueue(ctx, tx, orderEvent(o, domain.EventOrderRefunded, domain.NewOrderRefundedEvent(o, regs, now)))
	})
	if err != nil {
		return domain.Order{}, fmt.Errorf("record refund: %w", err)
	}
	return o, nil
}
