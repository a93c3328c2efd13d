package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/checkout/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/checkout/internal/app"
	"github.com/podiumhq/podium/services/checkout/internal/domain"
)

// errKeyTaken rolls back a refund decision whose idempotency key has a record already.
var errKeyTaken = errors.New("idempotency key taken")

// DecideRefund decides a refund in one transaction: the order's checkout locked, the
// idempotency key recorded (a key with a record already decides nothing: taken is true), the
// refund decided on what the checkout's earlier refunds return, counted against the payment,
// stored, and the key's record SUCCEEDED with the refund's id.
func (r *Repository) DecideRefund(ctx context.Context, d app.RefundDecision) (domain.OrderRefund, bool, error) {
	var refund domain.OrderRefund
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		row, err := q.LockPaidCheckoutOfOrder(ctx, db.LockPaidCheckoutOfOrderParams{OrderID: &d.OrderID, OrganizerID: d.Key.OrganizerID, Livemode: d.Key.Livemode})
		if postgres.IsNoRows(err) {
			return domain.ErrOrderNotFound
		}
		if err != nil {
			return fmt.Errorf("lock checkout of order: %w", err)
		}
		k := d.Key
		n, err := q.InsertIdempotency(ctx, db.InsertIdempotencyParams{
			KeyID: k.KeyID, IdempotencyKey: k.Key, RequestHash: k.RequestHash, CheckoutID: row.ID, LockedUntil: k.LockedUntil,
			CreatedAt: time.Now().UTC(), ExpiresAt: k.ExpiresAt, Livemode: k.Livemode, OrganizerID: &k.OrganizerID,
		})
		if err != nil {
			return fmt.Errorf("insert idempotency: %w", err)
		}
		if n == 0 {
			return errKeyTaken
		}
		c, err := toCheckout(row)
		if err != nil {
			return err
		}
		refunded, err := q.RefundedTickets(ctx, c.ID)
		if err != nil {
			return fmt.Errorf("refunded tickets: %w", err)
		}
		if refund, err = d.Decide(domain.Refundable{Checkout: c, Refunded: row.AmountRefunded, RefundedTickets: refunded}); err != nil {
			return err
		}
		// The row lock made the decision on the latest amounts; the condition is the last guard.
		switch n, err := q.AddRefunded(ctx, db.AddRefundedParams{Amount: refund.Amount, ID: c.ID}); {
		case err != nil:
			return fmt.Errorf("count refund %s against its payment: %w", refund.ID, err)
		case n == 0:
			return fmt.Errorf("refund %s of %d would exceed what checkout %s was paid", refund.ID, refund.Amount, c.ID)
		}
		if err := q.InsertRefund(ctx, db.InsertRefundParams{
			ID: refund.ID, OrganizerID: refund.OrganizerID, Livemode: refund.Livemode, CheckoutID: c.ID, OrderID: refund.OrderID,
			PaymentIntent: refund.PaymentIntent, Amount: refund.Amount, Currency: refund.Currency, Reason: refund.Reason,
			TicketIds: nonNil(refund.TicketIDs), CancelTickets: refund.CancelTickets, NextAttemptAt: refund.NextAttemptAt,
		}); err != nil {
			return fmt.Errorf("insert refund: %w", err)
		}
		_, err = q.SucceedIdempotency(ctx, db.SucceedIdempotencyParams{KeyID: k.KeyID, IdempotencyKey: k.Key, CheckoutID: c.ID, Response: []byte(refund.ID), Livemode: k.Livemode})
		return err
	})
	if errors.Is(err, errKeyTaken) {
		return domain.OrderRefund{}, true, nil
	}
	if err != nil {
		return domain.OrderRefund{}, false, fmt.Errorf("decide refund: %w", err)
	}
	return refund, false, nil
}

// OrderOfTickets returns the order of the organizer's checkout of a mode whose hold holds
// every ticket given.
func (r *Repository) OrderOfTickets(ctx context.Context, organizerID string, livemode bool, ticketIDs []string) (string, error) {
	each := make([][]string, len(ticketIDs))
	for i, t := range ticketIDs {
		each[i] = []string{t}
	}
	tickets, err := json.Marshal(each)
	if err != nil {
		return "", fmt.Errorf("order of tickets: %w", err)
	}
	id, err := r.q.OrderOfTickets(ctx, db.OrderOfTicketsParams{OrganizerID: organizerID, Livemode: livemode, Tickets: tickets})
	if postgres.IsNoRows(err) || (err == nil && id == nil) {
		return "", domain.ErrOrderNotFound
	}
	if err != nil {
		return "", fmt.Errorf("order of tickets: %w", err)
	}
	return *id, nil
}

// OrderRefund returns an organizer's refund in one mode.
func (r *Repository) OrderRefund(ctx context.Context, organizerID string, livemode bool, id string) (domain.OrderRefund, error) {
	row, err := r.q.GetRefund(ctx, db.GetRefundParams{ID: id, OrganizerID: organizerID, Livemode: livemode})
	if postgres.IsNoRows(err) {
		return domain.OrderRefund{}, domain.ErrRefundNotFound
	}
	if err != nil {
		return domain.OrderRefund{}, fmt.Errorf("get refund: %w", err)
	}
	return toOrderRefund(row), nil
}

// OrderRefunds lists the refunds of an organizer's order in one mode, oldest first, and
// counts them.
func (r *Repository) OrderRefunds(ctx context.Context, organizerID string, livemode bool, orderID string, limit, offset int) ([]domain.OrderRefund, int, error) {
	rows, err := r.q.RefundsOfOrder(ctx, db.RefundsOfOrderParams{OrganizerID: organizerID, Livemode: livemode, OrderID: orderID,
		Limit: int32(min(limit, math.MaxInt32)), Offset: int32(min(offset, math.MaxInt32))}) //nolint:gosec // bounded just before
	if err != nil {
		return nil, 0, fmt.Errorf("refunds of order: %w", err)
	}
	total, err := r.q.CountRefundsOfOrder(ctx, db.CountRefundsOfOrderParams{OrganizerID: organizerID, Livemode: livemode, OrderID: orderID})
	if err != nil {
		return nil, 0, fmt.Errorf("count refunds of order: %w", err)
	}
	out := make([]domain.OrderRefund, 0, len(rows))
	for _, row := range rows {
		out = append(out, toOrderRefund(row))
	}
	return out, int(total), nil
}

// ClaimOrderRefund claims the organizer's refund due longest at now, for lease on the
// database's clock.
func (r *Repository) ClaimOrderRefund(ctx context.Context, now time.Time, lease time.Duration) (domain.OrderRefund, bool, error) {
	row, err := r.q.ClaimOrderRefund(ctx, db.ClaimOrderRefundParams{Now: now, LeaseSeconds: lease.Seconds()})
	if postgres.IsNoRows(err) {
		return domain.OrderRefund{}, false, nil
	}
	if err != nil {
		return domain.OrderRefund{}, false, fmt.Errorf("claim order refund: %w", err)
	}
	return toOrderRefund(row), true, nil
}

// RecordOrderRefund locks the refund id and applies fn in one transaction; when fn changed it,
// a refund that succeeded publishes refund.succeeded (with what the payment's refunds made
// return in all) and one that failed for good is no longer counted against the payment.
func (r *Repository) RecordOrderRefund(ctx context.Context, id string, fn func(*domain.OrderRefund) bool) (domain.OrderRefund, bool, error) {
	var refund domain.OrderRefund
	changed := false
	err := postgres.InTx(ctx, r.pool, func(tx pgx.Tx) error {
		q := r.q.WithTx(tx)
		row, err := q.GetRefundForUpdate(ctx, id)
		if err != nil {
			return fmt.Errorf("lock refund: %w", err)
		}
		refund = toOrderRefund(row)
		if changed = fn(&refund); !changed {
			return nil
		}
		if err := q.UpdateRefund(ctx, updateRefundParams(refund)); err != nil {
			return fmt.Errorf("update refund: %w", err)
		}
		switch refund.State {
		case domain.RefundStateFailed:
			return q.GiveRefundedBack(ctx, db.GiveRefundedBackParams{Amount: refund.Amount, ID: refund.CheckoutID})
		case domain.RefundStateSucceeded:
			return publishSucceeded(ctx, tx, q, refund)
		}
		return nil
	})
	if err != nil {
		return domain.OrderRefund{}, false, fmt.Errorf("record refund %s: %w", id, err)
	}
	return refund, changed, nil
}

// publishSucceeded writes refund.succeeded to the outbox, with what the succeeded refunds of
// the payment return, read under the checkout's lock so that two refunds that succeed together
// see each other.
func publishSucceeded(ctx context.Context, tx pgx.Tx, q *db.Queries, refund domain.OrderRefund) error {
	c, err := q.GetCheckoutForUpdate(ctx, refund.CheckoutID)
	if err != nil {
		return fmt.Errorf("lock checkout: %w", err)
	}
	total, err := q.SucceededRefundTotal(ctx, refund.CheckoutID)
	if err != nil {
		return fmt.Errorf("succeeded refunds: %w", err)
	}
	var paid int64
	if c.AmountPaid != nil {
		paid = *c.AmountPaid
	}
	m := refund.SucceededMessage(paid, total)
	_, err = outbox.Enqueue(ctx, tx, outbox.Event{Topic: m.Topic, Key: m.Key, Type: m.Type, Source: domain.EventSource, Data: m.Data})
	return err
}

func toOrderRefund(row db.Refund) domain.OrderRefund {
	return domain.OrderRefund{
		ID: row.ID, OrganizerID: row.OrganizerID, Livemode: row.Livemode, CheckoutID: row.CheckoutID, OrderID: row.OrderID,
		PaymentIntent: row.PaymentIntent, Amount: row.Amount, Currency: row.Currency, Reason: row.Reason, TicketIDs: row.TicketIds,
		CancelTickets: row.CancelTickets, State: row.State, ProviderRefundID: deref(row.ProviderRefundID),
		FailureCode: deref(row.FailureCode), FailureMessage: deref(row.FailureMessage), Attempts: int(row.Attempts), Claim: int(row.Claim),
		NextAttemptAt: row.NextAttemptAt, ClaimedUntil: row.ClaimedUntil, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
		SucceededAt: row.SucceededAt, FailedAt: row.FailedAt,
	}
}

func updateRefundParams(r domain.OrderRefund) db.UpdateRefundParams {
	return db.UpdateRefundParams{
		ID: r.ID, State: r.State, ProviderRefundID: nilIfEmpty(r.ProviderRefundID), FailureCode: nilIfEmpty(r.FailureCode),
		FailureMessage: nilIfEmpty(r.FailureMessage), Attempts: int32(min(r.Attempts, math.MaxInt32)), //nolint:gosec // bounded just before
		NextAttemptAt: r.NextAttemptAt, ClaimedUntil: r.ClaimedUntil, UpdatedAt: r.UpdatedAt, SucceededAt: r.SucceededAt, FailedAt: r.FailedAt,
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
