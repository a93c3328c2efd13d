package domain

import (
	"fmt"
	"slices"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// AdultAge is the age from which an athlete is not a minor, on the event's start date.
const AdultAge = 18

// Signature bounds (also in the request schema; checked again as a business rule).
const (
	maxStrokes        = 20
	minStrokePoints   = 2
	maxStrokePoints   = 1000
	maxStrokeMillis   = 300000
	maxWaiverVersions = 50
)

// checkWaiverMap checks one waiversAccepted map: every waiver required of the registration
// is accepted and every key is a waiver of the event. It reports whether any waiver is
// required of it.
func checkWaiverMap(ev *Event, path string, accepted map[string]bool, minor bool, bad *fault.Problems) (required bool) {
	for _, w := range ev.Waivers {
		if !w.Required || (w.ForMinors && !minor) {
			continue
		}
		required = true
		if !accepted[w.ID] {
			bad.Addf("%s[%q] must be true: the %q waiver is required", path, w.ID, w.Title)
		}
	}
	keys := make([]string, 0, len(accepted))
	for id := range accepted {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	for _, id := range keys {
		if !slices.ContainsFunc(ev.Waivers, func(w Waiver) bool { return w.ID == id }) {
			bad.Addf("%s[%q] is not a waiver of this event", path, id)
		}
	}
	return required
}

// check applies the signature rules: authority, stroke bounds, exactly the event's current
// waiver versions, and the guardian's authority when a minor takes part.
func (s *LegalSignature) check(ev *Event, guardian bool, bad *fault.Problems) {
	if !s.AuthorityAccepted {
		bad.Add("legalSignature.authorityAccepted must be true: the signer must confirm they have the authority to sign")
	}
	if s.GuardianAuthorityAccepted != nil && !*s.GuardianAuthorityAccepted {
		bad.Add("legalSignature.guardianAuthorityAccepted must be true when present: the guardian must confirm their authority")
	}
	if guardian && s.GuardianAuthorityAccepted == nil {
		bad.Addf("legalSignature.guardianAuthorityAccepted must be true: an athlete is under %d on the event date", AdultAge)
	}
	checkStrokes(s.Strokes, bad)
	checkWaiverVersions(ev, s.WaiverVersions, bad)
}

func checkStrokes(strokes [][]SignaturePoint, bad *fault.Problems) {
	if len(strokes) < 1 || len(strokes) > maxStrokes {
		bad.Addf("legalSignature.strokes must have 1 to %d strokes", maxStrokes)
	}
	for i, st := range strokes {
		if len(st) < minStrokePoints || len(st) > maxStrokePoints {
			bad.Addf("legalSignature.strokes[%d] must have %d to %d points", i, minStrokePoints, maxStrokePoints)
		}
		for j, p := range st {
			if p.X < 0 || p.X > 1 || p.Y < 0 || p.Y > 1 || p.T < 0 || p.T > maxStrokeMillis {
				bad.Addf("legalSignature.strokes[%d][%d] must have x and y from 0 to 1 and t from 0 to %d", i, j, maxStrokeMillis)
			}
		}
	}
}

// checkWaiverVersions requires the signed versions to be exactly the event's waivers at their
// current versions: none missing, none unknown, none repeated, none outdated.
func checkWaiverVersions(ev *Event, versions []WaiverVersion, bad *fault.Problems) {
	if len(versions) > maxWaiverVersions {
		bad.Addf("legalSignature.waiverVersions must have at most %d items", maxWaiverVersions)
	}
	seen := map[string]bool{}
	for i, v := range versions {
		path := fmt.Sprintf("legalSignature.waiverVersions[%d]", i)
		idx := slices.IndexFunc(ev.Waivers, func(w Waiver) bool { return w.ID == v.WaiverID })
		switch {
		case idx < 0:
			bad.Addf("%s.waiverId %q is not a waiver of this event", path, v.WaiverID)
		case seen[v.WaiverID]:
			bad.Addf("%s.waiverId %q is listed more than once", path, v.WaiverID)
		case ev.Waivers[idx].Version != v.Version:
			bad.Addf("%s.version %d of waiver %q is not the current one (%d): reload the waivers and sign again", path, v.Version, v.WaiverID, ev.Waivers[idx].Version)
		}
		seen[v.WaiverID] = true
	}
	for _, w := range ev.Waivers {
		if !seen[w.ID] {
			bad.Addf("legalSignature.waiverVersions must list waiver %q (%s) at version %d", w.ID, w.Title, w.Version)
		}
	}
}

// hasMinor reports whether an athlete is under AdultAge on the event's start date.
func hasMinor(ev *Event, athletes []Athlete) bool {
	for _, a := range athletes {
		if IsMinor(a.BirthDate, ev.StartDate) {
			return true
		}
	}
	return false
}

// IsMinor reports whether someone born on birthDate (YYYY-MM-DD) is under AdultAge on day.
// An unreadable date is not a minor's (the request schema guarantees the format).
func IsMinor(birthDate string, day time.Time) bool {
	b, err := time.Parse(time.DateOnly, birthDate)
	if err != nil {
		return false
	}
	return b.AddDate(AdultAge, 0, 0).After(day)
}

func (e *Event) hasMinorsWaiver() bool {
	return slices.ContainsFunc(e.Waivers, func(w Waiver) bool { return w.ForMinors })
}
