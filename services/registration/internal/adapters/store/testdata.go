package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// DeleteTestData deletes the organizer's test data (livemode false only) in one transaction:
// its orders, registrations, tickets, hold ids, receipt cooldowns, kept mail and waitlists
// (their offers' places go with the rest); the test
// places of its events go back to zero, announced like any change, so their versions keep
// growing. Live rows are never touched; a second call finds nothing more. Events already in
// the outbox about the deleted rows are relayed as they are (they describe test data).
func (r *Repository) DeleteTestData(ctx context.Context, organizerID string, now time.Time) (domain.TestDataDeleted, error) {
	var d domain.TestDataDeleted
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		rows, err := q.TestPlacesOfOrganizer(ctx, organizerID)
		if err != nil {
			return fmt.Errorf("test places: %w", err)
		}
		if err := q.ResetTestPlaces(ctx, organizerID); err != nil {
			return fmt.Errorf("reset test places: %w", err)
		}
		changed := make([]category, 0, len(rows))
		for _, p := range rows {
			changed = append(changed, category{id: p.CategoryID, event: p.EventID})
		}
		if err := q.DeleteTestReceiptMails(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test receipt cooldowns: %w", err)
		}
		if d.Tickets, err = q.DeleteTestTickets(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test tickets: %w", err)
		}
		if d.Registrations, err = q.DeleteTestRegistrations(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test registrations: %w", err)
		}
		if d.Orders, err = q.DeleteTestOrders(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test orders: %w", err)
		}
		if err := q.DeleteTestDeletedTickets(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test deleted tickets: %w", err)
		}
		if err := q.DeleteTestReleasedHolds(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test hold ids: %w", err)
		}
		if d.Mail, err = q.DeleteTestMail(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test mail: %w", err)
		}
		if err := q.DeleteTestScans(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test scans: %w", err)
		}
		if _, err := q.DeleteTestWaitlist(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test waitlist: %w", err)
		}
		if err := q.DeleteTestEmailJoins(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test waitlist e-mail joins: %w", err)
		}
		if err := q.DeleteTestWaitlistClosed(ctx, organizerID); err != nil {
			return fmt.Errorf("delete test waitlist closings: %w", err)
		}
		if d.Orders == 0 {
			return nil // nothing was left: the places were freed by an earlier wipe
		}
		return announce(ctx, tx, changed, now)
	})
	if err != nil {
		return domain.TestDataDeleted{}, fmt.Errorf("delete test data: %w", err)
	}
	return d, nil
}
