package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/outbox"
	pg "github.com/podiumhq/podium/libs/postgres"
	"github.com/podiumhq/podium/services/registration/internal/adapters/store/db"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// CheckIn applies one scan in its own transaction: its nonce is claimed first, so a retry (even
// a concurrent one, which waits for the first) answers the stored result; the scanned
// registration is locked as every writer locks it (its order, then itself), and the unique
// index of live check-ins keeps one per ticket whatever else happens.
func (r *Repository) CheckIn(ctx context.Context, s domain.Scope, scan domain.Scan, now time.Time) (domain.ScanResult, error) {
	var out domain.ScanResult
	err := r.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		claimed, err := q.ClaimScanNonce(ctx, db.ClaimScanNonceParams{
			OrganizerID: s.OrganizerID, Livemode: s.Livemode, Nonce: scan.Nonce, Fingerprint: scan.Fingerprint(), CreatedAt: now,
		})
		if err != nil {
			return fmt.Errorf("claim nonce: %w", err)
		}
		if claimed == 0 {
			out, err = storedScan(ctx, q, s, scan)
			return err
		}
		if out, err = checkIn(ctx, tx, q, s, scan, now); err != nil {
			return err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		return q.SetScanResult(ctx, db.SetScanResultParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, Nonce: scan.Nonce, Result: b})
	})
	if err != nil {
		return domain.ScanResult{}, fmt.Errorf("check in: %w", err)
	}
	return out, nil
}

// storedScan returns the result of the first scan with scan's nonce.
func storedScan(ctx context.Context, q *db.Queries, s domain.Scope, scan domain.Scan) (domain.ScanResult, error) {
	row, err := q.GetScan(ctx, db.GetScanParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, Nonce: scan.Nonce})
	if err != nil {
		return domain.ScanResult{}, fmt.Errorf("get scan: %w", err)
	}
	if row.Fingerprint != scan.Fingerprint() {
		return domain.ScanResult{}, fault.NewConflict(fmt.Sprintf("nonce %s was already used for another scan", scan.Nonce)).WithCode(domain.CodeNonceReused)
	}
	var out domain.ScanResult
	if err := json.Unmarshal(row.Result, &out); err != nil {
		return domain.ScanResult{}, fmt.Errorf("stored scan %s: %w", scan.Nonce, err)
	}
	return out, nil
}

// checkIn checks in the scanned ticket, or its whole team, unless it cannot be.
func checkIn(ctx context.Context, tx pgx.Tx, q *db.Queries, s domain.Scope, scan domain.Scan, now time.Time) (domain.ScanResult, error) {
	ticketID := scan.TicketID
	if scan.Bib != nil {
		id, err := q.FirstTicketByBib(ctx, db.FirstTicketByBibParams{OrganizerID: s.OrganizerID, Livemode: s.Livemode, EventID: scan.EventID, Bib: scan.Bib})
		if pg.IsNoRows(err) {
			return domain.Refusal(scan, domain.ScanUnknown, ""), nil
		}
		if err != nil {
			return domain.ScanResult{}, fmt.Errorf("ticket by bib: %w", err)
		}
		ticketID = id
	}
	reg, err := load(ctx, q, s, ticketID, true)
	if fault.KindOf(err) == fault.NotFound {
		deleted, derr := q.IsDeletedTicket(ctx, db.IsDeletedTicketParams{ID: ticketID, OrganizerID: s.OrganizerID, Livemode: s.Livemode})
		if derr != nil {
			return domain.ScanResult{}, fmt.Errorf("deleted ticket: %w", derr)
		}
		if deleted {
			return domain.Refusal(scan, domain.ScanCancelled, ticketID), nil
		}
		return domain.Refusal(scan, domain.ScanUnknown, ""), nil
	}
	if err != nil {
		return domain.ScanResult{}, err
	}
	targets, refusal := domain.ScanTargets(reg, ticketID, scan)
	if refusal != "" {
		return domain.Refusal(scan, refusal, ticketID), nil
	}
	live, err := liveCheckIns(ctx, q, reg.ID)
	if err != nil {
		return domain.ScanResult{}, err
	}
	outcomes := make([]domain.TicketOutcome, len(targets))
	var events []outbox.Event
	for i, t := range targets {
		c, found := live[t.ID]
		result := domain.ScanDuplicate
		if !found {
			if c, err = insertCheckIn(ctx, q, reg, t, scan, now); err != nil {
				return domain.ScanResult{}, err
			}
			result = domain.ScanAccepted
			events = append(events, outbox.Event{Topic: domain.RegistrationsTopic, Key: reg.ID, Type: domain.EventTicketCheckedIn, Data: domain.NewTicketCheckedInEvent(c)})
		}
		outcomes[i] = domain.TicketOutcome{TicketID: t.ID, Result: result, CheckIn: domain.NewCheckInView(c)}
	}
	if err := enqueue(ctx, tx, events...); err != nil {
		return domain.ScanResult{}, err
	}
	return domain.ScanAnswer(scan, outcomes), nil
}

// insertCheckIn records the check-in of t and marks the ticket checked in. The registration is
// locked, so t has no live check-in; the unique index would refuse a second one anyway.
func insertCheckIn(ctx context.Context, q *db.Queries, reg domain.Registration, t domain.Ticket, scan domain.Scan, now time.Time) (domain.CheckIn, error) {
	c := domain.CheckIn{
		ID: domain.NewCheckInID(), OrganizerID: reg.OrganizerID, Livemode: reg.Livemode, EventID: reg.EventID,
		RegistrationID: reg.ID, CategoryID: reg.CategoryID, TicketID: t.ID, AthleteID: t.AthleteID,
		AthleteName: t.Athlete.Fullname, TeamName: reg.TeamName, Bib: reg.Bib, ScannedAt: scan.ScannedAt.UTC(),
		Device: scan.Device, CreatedAt: now.UTC(),
	}
	n, err := q.InsertCheckIn(ctx, db.InsertCheckInParams{
		ID: c.ID, OrganizerID: c.OrganizerID, Livemode: c.Livemode, EventID: c.EventID, RegistrationID: c.RegistrationID,
		TicketID: c.TicketID, ScannedAt: c.ScannedAt, Device: c.Device, Nonce: scan.Nonce, CreatedAt: c.CreatedAt,
	})
	if err != nil {
		return c, fmt.Errorf("insert check-in: %w", err)
	}
	if n == 0 {
		return c, fmt.Errorf("insert check-in: ticket %s already has a live check-in", t.ID)
	}
	if err := q.SetTicketScanned(ctx, db.SetTicketScannedParams{ID: t.ID, ScannedAt: &c.ScannedAt, UpdatedAt: now}); err != nil {
		return c, fmt.Errorf("mark ticket checked in: %w", err)
	}
	return c, nil
}

// liveCheckIns returns the live check-ins of a registration by ticket id.
func liveCheckIns(ctx context.Context, q *db.Queries, registrationID string) (map[string]domain.CheckIn, error) {
	rows, err := q.LiveCheckIns(ctx, registrationID)
	if err != nil {
		return nil, fmt.Errorf("live check-ins: %w", err)
	}
	out := make(map[string]domain.CheckIn, len(rows))
	for _, row := range rows {
		out[row.TicketID] = toCheckIn(db.GetCheckInRow(row))
	}
	return out, nil
}

// UndoCheckIn undoes the check-in id within s: the ticket is no longer checked in by it (and
// can be checked in again). Undoing an undone check-in answers it as it is.
func (r *Repository) UndoCheckIn(ctx context.Context, s domain.Scope, id string, now time.Time) (domain.CheckIn, error) {
	var out domain.CheckIn
	err := r.inTx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		row, err := q.GetCheckIn(ctx, id)
		if pg.IsNoRows(err) || err == nil && (s.OrganizerID == "" || !s.Sees(row.OrganizerID, row.Livemode)) {
			return domain.NotFound("check-in", id)
		}
		if err != nil {
			return fmt.Errorf("get check-in: %w", err)
		}
		out = toCheckIn(row)
		if out.UndoneAt != nil {
			return nil
		}
		if _, err := load(ctx, q, s, out.TicketID, true); err != nil {
			return err
		}
		n, err := q.UndoCheckIn(ctx, db.UndoCheckInParams{ID: id, UndoneAt: &now})
		if err != nil {
			return fmt.Errorf("undo check-in: %w", err)
		}
		if n == 0 { // undone by another call meanwhile
			row, err = q.GetCheckIn(ctx, id)
			out = toCheckIn(row)
			return err
		}
		at := now.UTC()
		out.UndoneAt = &at
		return q.ClearTicketScanned(ctx, db.ClearTicketScannedParams{ID: out.TicketID, UpdatedAt: now})
	})
	if err != nil {
		return domain.CheckIn{}, fmt.Errorf("undo check-in: %w", err)
	}
	return out, nil
}

func toCheckIn(r db.GetCheckInRow) domain.CheckIn {
	return domain.CheckIn{
		ID: r.ID, OrganizerID: r.OrganizerID, Livemode: r.Livemode, EventID: r.EventID, RegistrationID: r.RegistrationID,
		CategoryID: r.CategoryID, TicketID: r.TicketID, AthleteID: r.AthleteID, AthleteName: r.Fullname, TeamName: r.TeamName,
		Bib: r.Bib, ScannedAt: r.ScannedAt.UTC(), Device: r.Device, CreatedAt: r.CreatedAt.UTC(), UndoneAt: utc(r.UndoneAt),
	}
}
