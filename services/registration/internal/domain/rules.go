package domain

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// RegistrationInput is what a create (organizer) or a hold (checkout) asks for in one
// category.
type RegistrationInput struct {
	CategoryID           string
	TeamName             string
	Club                 *string
	Bib                  *int64
	Athletes             []Athlete
	CheckedInAt          []time.Time
	Note                 *string
	CustomFields         []CustomFieldValue
	SupplementIDs        []string
	SupplementSelections []SupplementSelection
	WaiversAccepted      map[string]bool
	// PendingParticipants are participant places to be completed after payment.
	PendingParticipants int
	// Guest is the person a checkout buyer registered in the same order, if any.
	Guest *Guest
}

// CheckShape reports problems of the input that the request schema also refuses, for callers
// that bypass the gateway (the internal hold API): prefix is the path of the registration.
func CheckShape(prefix string, in RegistrationInput) error {
	var p fault.Problems
	if strings.TrimSpace(in.CategoryID) == "" {
		p.Addf("%scategoryId: is required", prefix)
	}
	if in.TeamName == "" {
		p.Addf("%steamName: is required", prefix)
	}
	if len(in.Athletes) == 0 && in.PendingParticipants == 0 {
		p.Addf("%sathletes: must have at least 1 item", prefix)
	}
	for i, a := range in.Athletes {
		checkAthleteShape(&p, fmt.Sprintf("%sathletes[%d].", prefix, i), a)
	}
	if in.PendingParticipants < 0 {
		p.Addf("%spendingParticipantCount: must be at least 0", prefix)
	}
	if in.Guest != nil {
		if !strings.Contains(in.Guest.Email, "@") {
			p.Addf("%sguestEmail: must be a valid e-mail address", prefix)
		}
		if len([]rune(in.Guest.Name)) < 2 {
			p.Addf("%sguestName: must be at least 2 characters long", prefix)
		}
	}
	return p.Err(fault.Invalid)
}

func checkAthleteShape(p *fault.Problems, path string, a Athlete) {
	if a.Fullname == "" {
		p.Addf("%sfullname: is required", path)
	}
	if a.IDNumber == "" {
		p.Addf("%sidNumber: is required", path)
	}
	if !strings.Contains(a.Email, "@") {
		p.Addf("%semail: must be a valid e-mail address", path)
	}
	if a.Gender != GenderMale && a.Gender != GenderFemale {
		p.Addf("%sgender: must be MALE or FEMALE", path)
	}
	if _, err := time.Parse(DateLayout, a.BirthDate); err != nil {
		p.Addf("%sbirthDate: must be a real calendar date in the form YYYY-MM-DD", path)
	}
}

// AgeOn returns the age in whole years on day of someone born on birth. Someone born on
// February 29 turns a year older on March 1 in common years.
func AgeOn(birth, day time.Time) int {
	age := day.Year() - birth.Year()
	if day.Month() < birth.Month() || day.Month() == birth.Month() && day.Day() < birth.Day() {
		age--
	}
	return age
}

// CheckEligibility reports every broken rule of in for category c of event e: team size,
// gender, ages on the event's start date, custom fields and supplements. prefix is the path
// of the registration in the request ("" or "registrations[1].").
func CheckEligibility(prefix string, e Event, c Category, in RegistrationInput) error {
	var p fault.Problems
	checkTeamSize(&p, prefix, c, len(in.Athletes), in.PendingParticipants)
	checkGender(&p, prefix, c, in.Athletes, in.PendingParticipants)
	checkAges(&p, prefix, e, c, in.Athletes)
	checkCustomFields(&p, prefix, e, c, in.CustomFields, len(in.Athletes))
	checkSupplements(&p, prefix, e, in.SupplementIDs, in.SupplementSelections)
	return p.Err(fault.Unprocessable)
}

func checkTeamSize(p *fault.Problems, prefix string, c Category, athletes, pending int) {
	n := athletes + pending
	lo, hi := max(c.TeamSize.Min, 1), c.TeamSize.Max
	if hi < lo {
		hi = lo
	}
	switch {
	case n >= lo && n <= hi:
	case lo == 1 && hi == 1:
		p.Addf("%sathletes: the category %s takes one athlete per registration, got %d", prefix, c.ID, n)
	case lo == hi:
		p.Addf("%sathletes: the category %s takes teams of exactly %d athletes, got %d", prefix, c.ID, lo, n)
	default:
		p.Addf("%sathletes: the category %s takes teams of %d to %d athletes, got %d", prefix, c.ID, lo, hi, n)
	}
}

func checkGender(p *fault.Problems, prefix string, c Category, athletes []Athlete, pending int) {
	switch c.Gender {
	case GenderMale, GenderFemale:
		for i, a := range athletes {
			if a.Gender != c.Gender {
				p.Addf("%sathletes[%d].gender: the category %s is for %s athletes only", prefix, i, c.ID, c.Gender)
			}
		}
	case GenderMixed:
		if pending > 0 { // the missing athletes can still complete the mix
			return
		}
		var men, women bool
		for _, a := range athletes {
			men = men || a.Gender == GenderMale
			women = women || a.Gender == GenderFemale
		}
		if !men || !women {
			p.Addf("%sathletes: the category %s is MIXED: a team needs at least one MALE and one FEMALE athlete", prefix, c.ID)
		}
	}
}

func checkAges(p *fault.Problems, prefix string, e Event, c Category, athletes []Athlete) {
	if c.AgeMin == nil && c.AgeMax == nil {
		return
	}
	day, ok := e.Start()
	if !ok {
		return
	}
	for i, a := range athletes {
		birth, err := time.Parse(DateLayout, a.BirthDate)
		if err != nil {
			continue // reported as a shape problem
		}
		age := AgeOn(birth, day)
		path := fmt.Sprintf("%sathletes[%d].birthDate", prefix, i)
		if c.AgeMin != nil && age < *c.AgeMin {
			p.Addf("%s: athlete is %d on %s, the category requires at least %d", path, age, e.StartDate, *c.AgeMin)
		}
		if c.AgeMax != nil && age > *c.AgeMax {
			p.Addf("%s: athlete is %d on %s, the category allows at most %d", path, age, e.StartDate, *c.AgeMax)
		}
	}
}

// fieldApplies reports whether form field f applies to category id.
func fieldApplies(f FormField, categoryID string) bool {
	return len(f.CategoryIDs) == 0 || slices.Contains(f.CategoryIDs, categoryID)
}

func checkSupplements(p *fault.Problems, prefix string, e Event, ids []string, sels []SupplementSelection) {
	find := func(id string) (Supplement, bool) {
		for _, s := range e.Supplements {
			if s.ID == id {
				return s, true
			}
		}
		return Supplement{}, false
	}
	seen := map[string]bool{}
	for i, id := range ids {
		path := fmt.Sprintf("%sselectedSupplementIds[%d]", prefix, i)
		s, ok := find(id)
		switch {
		case !ok:
			p.Addf("%s: supplement %s does not exist in event %s", path, id, e.ID)
		case !s.Active:
			p.Addf("%s: supplement %s is not active", path, id)
		case s.Kind == SupplementOptions:
			p.Addf("%s: supplement %s has options: choose one in supplementSelections", path, id)
		case seen[id]:
			p.Addf("%s: supplement %s is chosen twice", path, id)
		default:
			seen[id] = true
		}
	}
	for i, sel := range sels {
		path := fmt.Sprintf("%ssupplementSelections[%d]", prefix, i)
		s, ok := find(sel.SupplementID)
		switch {
		case !ok:
			p.Addf("%s.supplementId: supplement %s does not exist in event %s", path, sel.SupplementID, e.ID)
			continue
		case !s.Active:
			p.Addf("%s.supplementId: supplement %s is not active", path, sel.SupplementID)
			continue
		case s.Kind != SupplementOptions:
			p.Addf("%s.supplementId: supplement %s has a single price: send it in selectedSupplementIds", path, sel.SupplementID)
			continue
		case seen[sel.SupplementID]:
			p.Addf("%s.supplementId: supplement %s is chosen twice", path, sel.SupplementID)
			continue
		}
		seen[sel.SupplementID] = true
		idx := slices.IndexFunc(s.Options, func(o SupplementOption) bool { return o.ID == sel.OptionID })
		switch {
		case idx < 0:
			p.Addf("%s.optionId: option %s does not belong to supplement %s", path, sel.OptionID, sel.SupplementID)
		case !s.Options[idx].Active:
			p.Addf("%s.optionId: option %s of supplement %s is not active", path, sel.OptionID, sel.SupplementID)
		}
	}
}
