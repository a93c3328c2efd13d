package domain

import (
	"time"

	"github.com/podiumhq/podium/libs/clock"
)

// NewRegistration builds a registration of order o in category c of event e from in, with a
// new ticket per athlete. The input must have passed CheckEligibility.
func NewRegistration(o Order, e Event, c Category, in RegistrationInput, now time.Time) Registration {
	r := Registration{
		ID: NewRegistrationID(), OrganizerID: o.OrganizerID, EventID: e.ID, CategoryID: c.ID, CategoryName: c.Name,
		OrderID: o.ID, TeamName: in.TeamName, Club: in.Club, Bib: in.Bib, Note: in.Note,
		CheckedInAt: nonNilTimes(in.CheckedInAt), CustomFields: nonNilValues(in.CustomFields),
		SupplementIDs: nonNilStrings(in.SupplementIDs), SupplementSelections: nonNilSelections(in.SupplementSelections),
		WaiversAccepted: in.WaiversAccepted, PendingParticipants: in.PendingParticipants, Guest: in.Guest,
		Livemode: o.Livemode, CreatedAt: now, UpdatedAt: now,
	}
	for i, a := range in.Athletes {
		r.Tickets = append(r.Tickets, NewTicket(e, i, a, now))
	}
	if o.Status != OrderPending && o.Status != OrderCompleted {
		r.CancelledAt = &now
	}
	return r
}

// NewTicket returns a new ACTIVE ticket for athlete a at position.
func NewTicket(e Event, position int, a Athlete, now time.Time) Ticket {
	return Ticket{
		ID: NewTicketID(), AthleteID: NewAthleteID(), Position: position, Status: TicketActive,
		Athlete: a, Age: AthleteAge(e, a), CreatedAt: now, UpdatedAt: now,
	}
}

// AthleteAge is a's age on the event's start date (0 when either date is unreadable).
func AthleteAge(e Event, a Athlete) int {
	day, ok := e.Start()
	birth, err := time.Parse(DateLayout, a.BirthDate)
	if !ok || err != nil {
		return 0
	}
	return AgeOn(birth, day)
}

func nonNilTimes(s []time.Time) []time.Time {
	if s == nil {
		return []time.Time{}
	}
	out := make([]time.Time, len(s))
	for i, t := range s {
		out[i] = clock.Stored(t)
	}
	return out
}

func nonNilValues(s []CustomFieldValue) []CustomFieldValue {
	if s == nil {
		return []CustomFieldValue{}
	}
	return s
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilSelections(s []SupplementSelection) []SupplementSelection {
	if s == nil {
		return []SupplementSelection{}
	}
	return s
}
