package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// SignWaivers locks the registration holding ticketID, asks plan for the signing and stores
// it in one transaction: the ticket's pending and signed waivers and the registration.updated
// event. An unchanged plan stores nothing.
func (r *Repository) SignWaivers(ctx context.Context, s domain.Scope, ticketID string, plan func(domain.Registration) (domain.SigningPlan, error)) (domain.SigningPlan, error) {
	var out domain.SigningPlan
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		cur, err := load(ctx, q, s, ticketID, true)
		if err != nil {
			return err
		}
		p, err := plan(cur)
		if err != nil {
			return err
		}
		out = p
		if p.Unchanged {
			return nil
		}
		next := p.Registration
		for _, t := range next.Tickets {
			if t.ID != ticketID {
				continue
			}
			waivers, signed, err := waiverColumns(t)
			if err != nil {
				return err
			}
			err = q.SignTicketWaivers(ctx, db.SignTicketWaiversParams{ID: t.ID, PendingWaivers: waivers, SignedWaivers: signed, UpdatedAt: t.UpdatedAt})
			if err != nil {
				return err
			}
		}
		if err := q.TouchRegistration(ctx, db.TouchRegistrationParams{ID: next.ID, UpdatedAt: next.UpdatedAt}); err != nil {
			return err
		}
		return enqueue(ctx, tx, registrationEvents(domain.EventRegUpdated, []domain.Registration{next}, next.UpdatedAt)...)
	})
	if err != nil {
		return domain.SigningPlan{}, fmt.Errorf("sign waivers: %w", err)
	}
	return out, nil
}

// waiverColumns encodes t's pending and signed waivers as their JSON columns.
func waiverColumns(t domain.Ticket) (pending, signed []byte, err error) {
	if pending, err = json.Marshal(nonNil(t.PendingWaivers)); err != nil {
		return nil, nil, err
	}
	if signed, err = json.Marshal(nonNil(t.SignedWaivers)); err != nil {
		return nil, nil, err
	}
	return pending, signed, nil
}
