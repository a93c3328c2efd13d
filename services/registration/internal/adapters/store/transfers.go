package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// TransferTicket locks the registration holding ticketID, asks plan for the transfer and
// stores it in one transaction: the ticket row (its athlete, pending waivers and history) and
// the registration.transferred event. The ticket stays ACTIVE throughout and the ledger is not
// touched, so no reader ever sees the place free. An unchanged plan stores nothing.
func (r *Repository) TransferTicket(ctx context.Context, s domain.Scope, ticketID string, plan func(domain.Registration) (domain.TransferPlan, error)) (domain.TransferPlan, error) {
	var out domain.TransferPlan
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
		for _, t := range p.Registration.Tickets {
			if t.ID == ticketID {
				if err := storeTransfer(ctx, q, t); err != nil {
					return err
				}
			}
		}
		if err := q.TouchRegistration(ctx, db.TouchRegistrationParams{ID: p.Registration.ID, UpdatedAt: p.Registration.UpdatedAt}); err != nil {
			return err
		}
		ev := outbox.Event{
			Topic: domain.RegistrationsTopic, Key: p.Registration.ID, Type: domain.EventRegTransferred,
			Data: domain.NewRegistrationTransferredEvent(p.Registration, p.Transfer),
		}
		return enqueue(ctx, tx, ev)
	})
	if err != nil {
		return domain.TransferPlan{}, fmt.Errorf("transfer ticket: %w", err)
	}
	return out, nil
}

// storeTransfer writes t's new athlete, waivers to sign and history.
func storeTransfer(ctx context.Context, q *db.Queries, t domain.Ticket) error {
	birth, err := time.Parse(domain.DateLayout, t.Athlete.BirthDate)
	if err != nil {
		return fmt.Errorf("birth date of %s: %w", t.ID, err)
	}
	waivers, signed, err := waiverColumns(t)
	if err != nil {
		return err
	}
	history := make([]domain.TransferView, len(t.Transfers))
	for i, tr := range t.Transfers {
		history[i] = domain.NewTransferView(tr)
	}
	transfers, err := json.Marshal(history)
	if err != nil {
		return err
	}
	a := t.Athlete
	return q.TransferTicket(ctx, db.TransferTicketParams{
		ID: t.ID, AthleteID: t.AthleteID, Fullname: a.Fullname, IDNumber: a.IDNumber, Email: a.Email, Phone: a.Phone,
		Gender: a.Gender, BirthDate: birth, Age: int32(t.Age), PendingWaivers: waivers, Transfers: transfers, //nolint:gosec // an age
		SignedWaivers: signed, UpdatedAt: t.UpdatedAt,
	})
}

// ticketHistory decodes a ticket row's pending and signed waivers and transfers into t.
func ticketHistory(t *domain.Ticket, waivers, signed, transfers []byte) error {
	if len(waivers) > 0 {
		if err := json.Unmarshal(waivers, &t.PendingWaivers); err != nil {
			return fmt.Errorf("pending waivers of %s: %w", t.ID, err)
		}
	}
	if len(signed) > 0 {
		if err := json.Unmarshal(signed, &t.SignedWaivers); err != nil {
			return fmt.Errorf("signed waivers of %s: %w", t.ID, err)
		}
	}
	if len(transfers) == 0 {
		return nil
	}
	var history []domain.TransferView
	if err := json.Unmarshal(transfers, &history); err != nil {
		return fmt.Errorf("transfers of %s: %w", t.ID, err)
	}
	for _, h := range history {
		t.Transfers = append(t.Transfers, domain.Transfer{
			ID: h.TransferID, TicketID: t.ID, From: h.From, To: h.To, TransferredAt: h.TransferredAt.UTC(),
		})
	}
	return nil
}
