package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Receipts returns the COMPLETED orders of the event whose purchaser, any athlete or any guest
// registration's contact uses the
// (lowercase) e-mail, with their registrations' categories, teams and ticket ids.
func (r *Repository) Receipts(ctx context.Context, s domain.Scope, eventID, email string) ([]domain.Receipt, error) {
	orders, err := r.q.ReceiptOrders(ctx, db.ReceiptOrdersParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, EventID: eventID, Email: email})
	if err != nil {
		return nil, fmt.Errorf("receipts: %w", err)
	}
	if len(orders) == 0 {
		return nil, nil
	}
	ids := make([]string, len(orders))
	out := make([]domain.Receipt, len(orders))
	index := map[string]int{}
	for i, o := range orders {
		ids[i], index[o.ID] = o.ID, i
		out[i] = domain.Receipt{OrderID: o.ID, Amount: o.Amount, Currency: o.Currency, CreatedAt: o.CreatedAt.UTC()}
	}
	tickets, err := r.q.ReceiptTickets(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("receipt tickets: %w", err)
	}
	for _, t := range tickets {
		rc := &out[index[t.OrderID]]
		n := len(rc.Lines)
		if n == 0 || rc.Lines[n-1].TeamName != t.TeamName || rc.Lines[n-1].CategoryName != t.CategoryName {
			rc.Lines = append(rc.Lines, domain.ReceiptLine{CategoryName: t.CategoryName, TeamName: t.TeamName})
			n++
		}
		rc.Lines[n-1].TicketIDs = append(rc.Lines[n-1].TicketIDs, t.ID)
	}
	return out, nil
}

// QueueMail stores an e-mail for the mail worker, or keeps a test one (see queueMail).
func (r *Repository) QueueMail(ctx context.Context, m domain.Mail, now time.Time) error {
	return queueMail(ctx, r.q, m, now)
}

// queueMail stores m for the mail worker; a mail test data caused is kept as the organizer's
// test mail instead, never sent.
func queueMail(ctx context.Context, q *db.Queries, m domain.Mail, now time.Time) error {
	if m.Test {
		return keepTestMail(ctx, q, m, now)
	}
	if err := q.InsertMail(ctx, db.InsertMailParams{Recipient: m.To, Subject: m.Subject, Body: m.Body}); err != nil {
		return fmt.Errorf("queue mail: %w", err)
	}
	return nil
}

func keepTestMail(ctx context.Context, q *db.Queries, m domain.Mail, now time.Time) error {
	err := q.InsertTestMail(ctx, db.InsertTestMailParams{
		ID: domain.NewTestMailID(), OrganizerID: m.OrganizerID, Recipient: m.To, Subject: m.Subject, Body: m.Body,
		OrderID: ptr(m.OrderID), CreatedAt: now,
	})
	if err != nil {
		return fmt.Errorf("keep test mail: %w", err)
	}
	return nil
}

// TestMail returns a page of the organizer's kept test mail, newest first, and how many there are.
func (r *Repository) TestMail(ctx context.Context, organizerID string, p domain.Page) ([]domain.TestMail, int, error) {
	rows, err := r.q.ListTestMail(ctx, db.ListTestMailParams{OrganizerID: organizerID, MaxRows: int32(p.Limit), Skip: int32(p.Offset)}) //nolint:gosec // bounded by the handler
	if err != nil {
		return nil, 0, fmt.Errorf("test mail: %w", err)
	}
	total, err := r.q.CountTestMail(ctx, organizerID)
	if err != nil {
		return nil, 0, fmt.Errorf("count test mail: %w", err)
	}
	out := make([]domain.TestMail, len(rows))
	for i, row := range rows {
		out[i] = domain.TestMail{ID: row.ID, To: row.Recipient, Subject: row.Subject, Text: row.Body, OrderID: deref(row.OrderID), CreatedAt: row.CreatedAt.UTC()}
	}
	return out, int(total), nil
}

// PruneTestMail deletes test mail kept since before.
func (r *Repository) PruneTestMail(ctx context.Context, before time.Time) (int64, error) {
	n, err := r.q.PruneTestMail(ctx, before)
	if err != nil {
		return 0, fmt.Errorf("prune test mail: %w", err)
	}
	return n, nil
}

// QueueReceiptMail queues m, in one transaction that starts its recipient's cooldown for the
// event, unless the last receipt mail to the recipient was queued less than cooldown before
// now (too many requests, retried when the cooldown ends); a mail with m's dedupe key
// still unsent is not queued twice but takes m's content.
func (r *Repository) QueueReceiptMail(ctx context.Context, m domain.Mail, eventID string, now time.Time, cooldown time.Duration) error {
	recipient := domain.NormalEmail(m.To)
	err := r.inTx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		if cooldown > 0 {
			if err := startCooldown(ctx, q, eventID, !m.Test, recipient, now, cooldown); err != nil {
				return err
			}
		}
		if m.Test {
			return keepTestMail(ctx, q, m, now)
		}
		_, err := q.InsertMailOnce(ctx, db.InsertMailOnceParams{Recipient: m.To, Subject: m.Subject, Body: m.Body, DedupeKey: m.DedupeKey})
		return err
	})
	if err != nil {
		return fmt.Errorf("queue receipt mail: %w", err)
	}
	return nil
}

// startCooldown starts the cooldown of a recipient for an event in one mode, or refuses while
// one runs.
func startCooldown(ctx context.Context, q *db.Queries, eventID string, livemode bool, recipient string, now time.Time, cooldown time.Duration) error {
	n, err := q.StartReceiptCooldown(ctx, db.StartReceiptCooldownParams{EventID: eventID, Livemode: livemode, Recipient: recipient, Now: now, Since: now.Add(-cooldown)})
	if err != nil {
		return fmt.Errorf("receipt cooldown: %w", err)
	}
	if n > 0 {
		return nil
	}
	last, err := q.ReceiptCooldownStart(ctx, db.ReceiptCooldownStartParams{EventID: eventID, Livemode: livemode, Recipient: recipient})
	if err != nil {
		return fmt.Errorf("receipt cooldown: %w", err)
	}
	return domain.ReceiptCooldownError(last.Add(cooldown).Sub(now))
}

// ClaimMail leases up to limit due messages for lease.
func (r *Repository) ClaimMail(ctx context.Context, limit int, lease time.Duration) ([]domain.QueuedMail, error) {
	rows, err := r.q.ClaimMail(ctx, db.ClaimMailParams{LeaseSeconds: lease.Seconds(), MaxRows: int32(limit)}) //nolint:gosec // small
	if err != nil {
		return nil, fmt.Errorf("claim mail: %w", err)
	}
	out := make([]domain.QueuedMail, len(rows))
	for i, row := range rows {
		out[i] = domain.QueuedMail{ID: row.ID, Attempts: int(row.Attempts), Revision: row.Revision,
			Mail: domain.Mail{To: row.Recipient, Subject: row.Subject, Body: row.Body}}
	}
	return out, nil
}

// MailSent removes a delivered message, unless it was brought up to date since it was claimed
// (its newer content is then still to send).
func (r *Repository) MailSent(ctx context.Context, m domain.QueuedMail) error {
	return r.q.DeleteMail(ctx, db.DeleteMailParams{ID: m.ID, Revision: m.Revision})
}

// MailFailed schedules another attempt after a delay, unless the message was brought up to
// date since it was claimed.
func (r *Repository) MailFailed(ctx context.Context, m domain.QueuedMail, after time.Duration, cause error) error {
	return r.q.RetryMail(ctx, db.RetryMailParams{ID: m.ID, Revision: m.Revision, AfterSeconds: after.Seconds(), LastError: ptr(cause.Error())})
}
