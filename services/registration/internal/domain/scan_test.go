package domain_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/registration/internal/domain"
)

func TestScanCheck(t *testing.T) {
	now := time.Date(2027, 6, 12, 8, 0, 0, 0, time.UTC)
	bib := int64(7)
	for _, c := range []struct {
		name string
		scan domain.Scan
		want string
	}{
		{"a ticket", domain.Scan{TicketID: "tkt_1", ScannedAt: now}, ""},
		{"a bib in an event", domain.Scan{EventID: "evt_1", Bib: &bib, ScannedAt: now}, ""},
		{"neither", domain.Scan{ScannedAt: now}, "ticketId or bibRaceNumber is required"},
		{"both", domain.Scan{TicketID: "tkt_1", EventID: "evt_1", Bib: &bib, ScannedAt: now}, "ticketId and bibRaceNumber cannot both be sent"},
		{"a bib without its event", domain.Scan{Bib: &bib, ScannedAt: now}, "eventId is required with bibRaceNumber"},
		{"the device's clock 5 minutes ahead", domain.Scan{TicketID: "tkt_1", ScannedAt: now.Add(domain.MaxScanAhead)}, ""},
		{"further ahead", domain.Scan{TicketID: "tkt_1", ScannedAt: now.Add(domain.MaxScanAhead + time.Second)}, "scannedAt must not be later than 2027-06-12T08:05:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := fmt.Sprint(c.scan.Check(now))
			if c.want == "" && got != "[]" || !strings.Contains(got, c.want) {
				t.Fatalf("problems %s, want %q", got, c.want)
			}
		})
	}
}

func TestScanTargets(t *testing.T) {
	active := func(id string, pos int) domain.Ticket {
		return domain.Ticket{ID: id, Position: pos, Status: domain.TicketActive}
	}
	team := func(status domain.OrderStatus, tickets ...domain.Ticket) domain.Registration {
		return domain.Registration{Tickets: tickets, Order: &domain.Order{Status: status}}
	}
	gone := domain.Ticket{ID: "tkt_c", Position: 2, Status: domain.TicketCancelled}
	paid := team(domain.OrderCompleted, active("tkt_a", 0), active("tkt_b", 1), gone)
	cancelledAt := time.Now()
	withdrawn := paid
	withdrawn.CancelledAt = &cancelledAt
	bib := int64(3)
	for _, c := range []struct {
		name    string
		reg     domain.Registration
		ticket  string
		scan    domain.Scan
		want    string
		refusal string
	}{
		{"the ticket", paid, "tkt_b", domain.Scan{}, "[tkt_b]", ""},
		{"the team, the scanned ticket first", paid, "tkt_b", domain.Scan{Team: true}, "[tkt_b tkt_a]", ""},
		{"a bib: the team", paid, "tkt_a", domain.Scan{Bib: &bib}, "[tkt_a tkt_b]", ""},
		{"a cancelled ticket of an active team", paid, "tkt_c", domain.Scan{}, "[]", domain.ScanCancelled},
		{"a cancelled registration", withdrawn, "tkt_a", domain.Scan{}, "[]", domain.ScanCancelled},
		{"an unpaid order", team(domain.OrderPending, active("tkt_a", 0)), "tkt_a", domain.Scan{}, "[]", domain.ScanUnpaid},
		{"a refunded order", team(domain.OrderRefunded, active("tkt_a", 0)), "tkt_a", domain.Scan{}, "[]", domain.ScanCancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			targets, refusal := domain.ScanTargets(c.reg, c.ticket, c.scan)
			ids := make([]string, len(targets))
			for i, tk := range targets {
				ids[i] = tk.ID
			}
			if fmt.Sprint(ids) != c.want || refusal != c.refusal {
				t.Fatalf("targets %v refusal %q, want %s %q", ids, refusal, c.want, c.refusal)
			}
		})
	}
}

func TestScanAnswer(t *testing.T) {
	at := time.Date(2027, 6, 12, 7, 45, 12, 0, time.UTC)
	view := func(id string) domain.CheckInView {
		return domain.CheckInView{TicketID: id, AthleteName: "Ana " + id, TeamName: "Iron", ScannedAt: at, Device: "gate-a"}
	}
	for _, c := range []struct {
		name     string
		team     bool
		outcomes []string
		result   string
		message  string
	}{
		{"accepted", false, []string{domain.ScanAccepted}, domain.ScanAccepted, "Ana t0 checked in"},
		{"duplicate", false, []string{domain.ScanDuplicate}, domain.ScanDuplicate, "Ana t0 (ticket t0) was already checked in at 2027-06-12T07:45:12Z by gate-a"},
		{"a team", true, []string{domain.ScanAccepted, domain.ScanAccepted}, domain.ScanAccepted, "Ana t0 checked in with team Iron (2 athletes)"},
		{"a team the scanned one was in", true, []string{domain.ScanDuplicate, domain.ScanAccepted, domain.ScanAccepted}, domain.ScanAccepted, "; 2 teammates checked in now"},
		{"a team all in", true, []string{domain.ScanDuplicate, domain.ScanDuplicate}, domain.ScanDuplicate, "was already checked in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			outcomes := make([]domain.TicketOutcome, len(c.outcomes))
			for i, r := range c.outcomes {
				id := fmt.Sprint("t", i)
				outcomes[i] = domain.TicketOutcome{TicketID: id, Result: r, CheckIn: view(id)}
			}
			got := domain.ScanAnswer(domain.Scan{Nonce: "n", Team: c.team}, outcomes)
			if got.Result != c.result || !strings.Contains(got.Message, c.message) || (got.Team != nil) != c.team || got.CheckIn.TicketID != "t0" {
				t.Fatalf("answer %+v, want %s %q", got, c.result, c.message)
			}
		})
	}
}
