package domain

import (
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Patch is a partial update of a registration: nil fields are left untouched.
type Patch struct {
	EventID              *string
	CategoryID           *string
	TeamName             *string
	Club                 *string
	Bib                  *int64
	Athletes             []Athlete
	AthletesSet          bool
	CheckedInAt          []time.Time
	CheckedInAtSet       bool
	Note                 *string
	CustomFields         []CustomFieldValue
	CustomFieldsSet      bool
	SupplementIDs        []string
	SupplementIDsSet     bool
	SupplementSelections []SupplementSelection
	SelectionsSet        bool
	NotifyEmailChange    bool
}

// UpdatePlan is what applying a patch changes.
type UpdatePlan struct {
	// Registration is the registration as it will be, every ticket included.
	Registration Registration
	// NewTickets are the positions in Registration.Tickets that are new.
	NewTickets []int
	// MovedFrom is the previous category when the registration moves.
	MovedFrom string
	// EmailChangedTo is athlete 0's new e-mail when a confirmation must be sent.
	EmailChangedTo string
}

// PlanUpdate applies p to cur (in event e) and checks the result like a create. Athletes are
// matched by position among the active tickets: index i updates athlete i; a longer list adds
// athletes (new tickets, filling pending participant places first); a shorter list cancels
// the tickets of the removed positions (their rows stay, CANCELLED).
func PlanUpdate(e Event, cur Registration, p Patch, now time.Time) (UpdatePlan, error) {
	if cur.Cancelled() {
		return UpdatePlan{}, fault.NewConflict(fmt.Sprintf("registration %s is cancelled and cannot be changed", cur.ID)).WithCode(CodeRegistrationCancelled)
	}
	if p.EventID != nil && *p.EventID != cur.EventID {
		return UpdatePlan{}, fault.NewUnprocessable(fmt.Sprintf("eventId: a registration cannot move to another event (it is in %s)", cur.EventID))
	}
	next := cur
	next.Tickets = append([]Ticket(nil), cur.Tickets...)
	plan := UpdatePlan{}
	catID := cur.CategoryID
	if p.CategoryID != nil {
		catID = *p.CategoryID
	}
	c, ok := e.Category(catID)
	if !ok {
		return UpdatePlan{}, NotFound("category", catID)
	}
	if catID != cur.CategoryID {
		plan.MovedFrom = cur.CategoryID
		next.CategoryID = catID
	}
	next.CategoryName = c.Name
	setIf(&next.TeamName, p.TeamName)
	if p.Club != nil {
		next.Club = p.Club
	}
	if p.Bib != nil {
		next.Bib = p.Bib
	}
	if p.Note != nil {
		next.Note = p.Note
	}
	if p.CheckedInAtSet {
		next.CheckedInAt = nonNilTimes(p.CheckedInAt)
	}
	if p.CustomFieldsSet {
		next.CustomFields = nonNilValues(p.CustomFields)
	}
	if p.SupplementIDsSet {
		next.SupplementIDs = nonNilStrings(p.SupplementIDs)
	}
	if p.SelectionsSet {
		next.SupplementSelections = nonNilSelections(p.SupplementSelections)
	}
	active := cur.ActiveTickets()
	athletes := make([]Athlete, len(active))
	for i, t := range active {
		athletes[i] = t.Athlete
	}
	if p.AthletesSet {
		athletes = p.Athletes
		plan.NewTickets, plan.EmailChangedTo = applyAthletes(e, &next, active, p.Athletes, now)
		if !p.NotifyEmailChange {
			plan.EmailChangedTo = ""
		}
	}
	in := RegistrationInput{
		CategoryID: catID, TeamName: next.TeamName, Athletes: athletes, CustomFields: next.CustomFields,
		SupplementIDs: next.SupplementIDs, SupplementSelections: next.SupplementSelections,
		PendingParticipants: next.PendingParticipants,
	}
	if err := CheckEligibility("", e, c, in); err != nil {
		return UpdatePlan{}, err
	}
	if next.TeamName == "" {
		return UpdatePlan{}, fault.NewInvalid("teamName must not be empty")
	}
	// Ages follow the event's current start date.
	for i := range next.Tickets {
		next.Tickets[i].Age = AthleteAge(e, next.Tickets[i].Athlete)
	}
	next.UpdatedAt = now
	plan.Registration = next
	return plan, nil
}

// applyAthletes updates next's tickets by position and returns the indexes of new tickets in
// next.Tickets and athlete 0's new e-mail when it changed.
func applyAthletes(e Event, next *Registration, active []Ticket, list []Athlete, now time.Time) (added []int, email string) {
	index := map[string]int{}
	for i, t := range next.Tickets {
		index[t.ID] = i
	}
	maxPos := -1
	for _, t := range next.Tickets {
		maxPos = max(maxPos, t.Position)
	}
	for i, a := range list {
		if i < len(active) {
			k := index[active[i].ID]
			if i == 0 && a.Email != next.Tickets[k].Athlete.Email {
				email = a.Email
			}
			next.Tickets[k].Athlete = a
			next.Tickets[k].UpdatedAt = now
			continue
		}
		maxPos++
		next.Tickets = append(next.Tickets, NewTicket(e, maxPos, a, now))
		added = append(added, len(next.Tickets)-1)
		if next.PendingParticipants > 0 {
			next.PendingParticipants--
		}
	}
	for i := len(list); i < len(active); i++ {
		k := index[active[i].ID]
		next.Tickets[k].Status = TicketCancelled
		next.Tickets[k].CancelledAt = &now
		next.Tickets[k].UpdatedAt = now
	}
	return added, email
}

func setIf(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}
