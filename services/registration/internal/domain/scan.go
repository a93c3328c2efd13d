package domain

import "strconv"

// ScanTargets returns the tickets a scan of ticketID (a ticket of reg, its order loaded) checks
// in: the ticket, or every active ticket of its team for a scan of the whole team. refusal is
// the result when none can be: cancelled (the ticket, its registration or its order), unpaid
// (its order still pending).
func ScanTargets(reg Registration, ticketID string, scan Scan) (targets []Ticket, refusal string) {
	if reg.Cancelled() {
		return nil, ScanCancelled
	}
	switch reg.Order.Status {
	case OrderCompleted:
	case OrderPending:
		return nil, ScanUnpaid
	default:
		return nil, ScanCancelled
	}
	active := reg.ActiveTickets()
	if scan.WholeTeam() {
		if len(active) == 0 {
			return nil, ScanCancelled
		}
		if scan.Bib != nil {
			return active, ""
		}
	}
	for _, t := range active {
		if t.ID != ticketID {
			continue
		}
		if !scan.WholeTeam() {
			return []Ticket{t}, ""
		}
		// The scanned ticket first: the answer's check-in is its own.
		out := []Ticket{t}
		for _, o := range active {
			if o.ID != t.ID {
				out = append(out, o)
			}
		}
		return out, ""
	}
	return nil, ScanCancelled
}

// ScanAnswer is the answer to scan from what it did to each of its tickets (the scanned one
// first): accepted when it checked in any ticket, duplicate when all were in already.
func ScanAnswer(scan Scan, outcomes []TicketOutcome) ScanResult {
	first := outcomes[0]
	c := first.CheckIn
	out := ScanResult{Nonce: scan.Nonce, Result: ScanDuplicate, TicketID: first.TicketID, CheckIn: &c}
	accepted := 0
	for _, o := range outcomes {
		if o.Result == ScanAccepted {
			accepted++
		}
	}
	if accepted > 0 {
		out.Result = ScanAccepted
	}
	if scan.WholeTeam() {
		out.Team = outcomes
	}
	view := CheckIn{AthleteName: c.AthleteName, TicketID: c.TicketID, TeamName: c.TeamName, ScannedAt: c.ScannedAt, Device: c.Device}
	switch {
	case first.Result == ScanAccepted:
		out.Message = AcceptedMessage(view, len(outcomes))
	case accepted > 0:
		out.Message = DuplicateMessage(view) + "; " + plural(accepted, "teammate") + " checked in now"
	default:
		out.Message = DuplicateMessage(view)
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
