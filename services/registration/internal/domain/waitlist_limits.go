package domain

import (
	"fmt"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// CodeWaitlistEmailLimit refuses a join of an e-mail that already waits in as many of the
// organizer's waitlists as it may.
const CodeWaitlistEmailLimit = "waitlist_email_limit"

// WaitlistJoinWindow is the period over which an e-mail's joins are counted.
const WaitlistJoinWindow = time.Hour

// WaitlistLimits caps, per e-mail, organizer and mode, the entries in line or offered at once
// (Active) and the new entries made per WaitlistJoinWindow (PerHour), so that no one can put
// another's address on every waitlist of an organizer, each later offer mailing it. A join
// again of a category the e-mail waits in answers its entry and counts against neither. A
// cap of 0 is none.
type WaitlistLimits struct {
	Active  int
	PerHour int
}

// DefaultWaitlistLimits are the caps the configuration defaults to: a buyer rarely waits for
// more than a few categories of one organizer, and five a day of offers is as much mail as a
// mistaken or hostile join can bring an address.
var DefaultWaitlistLimits = WaitlistLimits{Active: 5, PerHour: 5}

// EmailJoins is an e-mail's join window: when it started and the entries made since.
type EmailJoins struct {
	WindowStart time.Time
	Joins       int
}

// Admit counts one more join of an e-mail holding active entries in line or offered at now,
// returning the window to keep, or refuses it: 409 while the e-mail holds Active entries
// (waiting an hour would not help), 429 until the window ends when PerHour joins were made in it.
func (l WaitlistLimits) Admit(j EmailJoins, active int, now time.Time) (EmailJoins, error) {
	if !now.Before(j.WindowStart.Add(WaitlistJoinWindow)) {
		j = EmailJoins{WindowStart: now}
	}
	if l.Active > 0 && active >= l.Active {
		return j, fault.NewConflict(fmt.Sprintf("this e-mail already waits in %d waitlists of this organizer, the most it may: "+
			"it may join another once one of them has ended", active)).WithCode(CodeWaitlistEmailLimit)
	}
	if l.PerHour > 0 && j.Joins >= l.PerHour {
		return j, fault.NewTooManyRequests(fmt.Sprintf("this e-mail joined %d waitlists of this organizer within the hour: "+
			"join again after Retry-After seconds", j.Joins), j.WindowStart.Add(WaitlistJoinWindow).Sub(now))
	}
	j.Joins++
	return j, nil
}
