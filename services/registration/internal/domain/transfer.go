package domain

import (
	"fmt"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/ids"
)

// TransferIDPrefix is the prefix of a transfer's id.
const TransferIDPrefix = "trf_"

// Codes of a refused transfer, as the error body's code, besides CodeTicketCancelled and
// CodeTicketUnpaid, which refuse a scan too.
const (
	// CodeTransferDeadlinePassed is a transfer after the event's transfersUntil.
	CodeTransferDeadlinePassed = "transfer_deadline_passed"
	// CodeGenderNotAllowed is a new athlete whose gender the category does not take.
	CodeGenderNotAllowed = "athlete_gender_not_allowed"
	// CodeAgeNotAllowed is a new athlete outside the category's ages on race day.
	CodeAgeNotAllowed = "athlete_age_not_allowed"
	// CodeTeamComposition is a team the new athlete would leave outside the category's rules
	// (its size, or a MIXED team without both genders).
	CodeTeamComposition = "team_composition_invalid"
)

// Transfer is one athlete taking the place of another on a ticket.
type Transfer struct {
	ID             string
	TicketID       string
	RegistrationID string
	From           AthleteView
	To             AthleteView
	TransferredAt  time.Time
}

// PendingWaiver is a waiver the ticket's athlete has still to sign.
type PendingWaiver struct {
	WaiverID string `json:"waiverId"`
	Version  int    `json:"version"`
	Title    string `json:"title"`
}

// TransferPlan is what a transfer changes.
type TransferPlan struct {
	// Registration is the registration as it will be.
	Registration Registration
	// Transfer is the record of the change; zero when Unchanged.
	Transfer Transfer
	// Unchanged is a transfer to the ticket's current athlete: it answers the registration as
	// it is and changes nothing.
	Unchanged bool
}

// NewTransferID returns a new random transfer id.
func NewTransferID() string { return ids.New(TransferIDPrefix) }

// PlanTransfer gives the place of ticket ticketID of cur (in event e) to athlete to at now:
// the ticket keeps its id, place and bib, gets a new athlete id, the waivers to sign and the
// record of the transfer. The rules of the category are checked for the team as it results,
// as a create checks them. A transfer to the ticket's current athlete changes nothing.
func PlanTransfer(e Event, cur Registration, ticketID string, to Athlete, now time.Time) (TransferPlan, error) {
	k := -1
	for i, t := range cur.Tickets {
		if t.ID == ticketID {
			k = i
		}
	}
	if k < 0 {
		return TransferPlan{}, NotFound("ticket", ticketID)
	}
	old := cur.Tickets[k]
	if cur.Cancelled() || old.Status != TicketActive {
		return TransferPlan{}, fault.NewConflict(fmt.Sprintf("ticket %s is cancelled and cannot be transferred", ticketID)).WithCode(CodeTicketCancelled)
	}
	if cur.Order != nil && cur.Order.Status != OrderCompleted {
		return TransferPlan{}, fault.NewConflict(fmt.Sprintf("ticket %s belongs to a %s order: only a paid ticket can be transferred", ticketID, cur.Order.Status)).WithCode(CodeTicketUnpaid)
	}
	if old.Athlete == to {
		return TransferPlan{Registration: cur, Unchanged: true}, nil
	}
	if e.TransfersUntil != nil && !now.Before(*e.TransfersUntil) {
		return TransferPlan{}, fault.NewConflict(fmt.Sprintf("event %s takes no transfers after %s", e.ID, e.TransfersUntil.UTC().Format(time.RFC3339))).WithCode(CodeTransferDeadlinePassed)
	}
	c, ok := e.Category(cur.CategoryID)
	if !ok {
		return TransferPlan{}, NotFound("category", cur.CategoryID)
	}
	if err := checkTransfer(e, c, cur, ticketID, to); err != nil {
		return TransferPlan{}, err
	}
	next := cur
	next.Tickets = append([]Ticket(nil), cur.Tickets...)
	t := old
	t.AthleteID, t.Athlete, t.Age, t.UpdatedAt = NewAthleteID(), to, AthleteAge(e, to), now
	t.PendingWaivers, t.SignedWaivers = WaiversToSign(e, to), nil
	tr := Transfer{
		ID: NewTransferID(), TicketID: t.ID, RegistrationID: cur.ID, TransferredAt: now,
		From: AthleteView{AthleteID: old.AthleteID, Athlete: old.Athlete}, To: AthleteView{AthleteID: t.AthleteID, Athlete: to},
	}
	t.Transfers = append(append([]Transfer(nil), old.Transfers...), tr)
	next.Tickets[k] = t
	next.UpdatedAt = now
	return TransferPlan{Registration: next, Transfer: tr}, nil
}

// checkTransfer checks the category's rules for to in the place of ticketID: the athlete's
// own rules (gender, age on race day) on to alone, the team's (size, MIXED) on the team as it
// results. The failure carries the code of the first rule broken.
func checkTransfer(e Event, c Category, cur Registration, ticketID string, to Athlete) error {
	var team []Athlete
	for _, t := range cur.ActiveTickets() {
		if t.ID == ticketID {
			team = append(team, to)
		} else {
			team = append(team, t.Athlete)
		}
	}
	self := []Athlete{to}
	rules := []struct {
		code  string
		check func(*fault.Problems)
	}{
		{CodeGenderNotAllowed, func(p *fault.Problems) {
			if c.Gender != GenderMixed {
				checkGender(p, "", c, self, 0)
			}
		}},
		{CodeAgeNotAllowed, func(p *fault.Problems) { checkAges(p, "", e, c, self) }},
		{CodeTeamComposition, func(p *fault.Problems) {
			checkTeamSize(p, "", c, len(team), cur.PendingParticipants)
			if c.Gender == GenderMixed {
				checkGender(p, "", c, team, cur.PendingParticipants)
			}
		}},
	}
	for _, r := range rules {
		var p fault.Problems
		r.check(&p)
		if len(p) > 0 {
			for i := range p {
				p[i] = strings.Replace(p[i], "athletes[0].", "athlete.", 1)
			}
			return (&fault.Error{Kind: fault.Unprocessable, Problems: p}).WithCode(r.code)
		}
	}
	return nil
}

// AdultAge is the age from which the waivers for minors no longer apply.
const AdultAge = 18

// WaiversToSign returns the waivers of e athlete a must sign: every required one, and those for
// minors when a is under AdultAge on race day.
func WaiversToSign(e Event, a Athlete) []PendingWaiver {
	minor := AthleteAge(e, a) < AdultAge
	out := []PendingWaiver{}
	for _, w := range e.Waivers {
		if w.Required && (!w.ForMinors || minor) {
			out = append(out, PendingWaiver{WaiverID: w.ID, Version: w.Version, Title: w.Title})
		}
	}
	return out
}
