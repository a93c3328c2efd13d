package domain

import (
	"fmt"
	"strings"
	"time"
)

// TooManyRequestsError refuses a request for now: the caller may retry after RetryAfter
// (answered 429 with Retry-After).
type TooManyRequestsError struct {
	Message    string
	RetryAfter time.Duration
}

// Error implements error.
func (e *TooManyRequestsError) Error() string { return e.Message }

// RetryAfterSeconds is RetryAfter in whole seconds, rounded up, at least 1.
func (e *TooManyRequestsError) RetryAfterSeconds() int {
	s := int((e.RetryAfter + time.Second - 1) / time.Second)
	return max(s, 1)
}

// HoldLimits caps the places that holds not yet paid for may take at once in one event, per
// client network (the buyer's address; an IPv6 address's /64) and per purchaser e-mail, so
// that holding places without paying is no way to sell an event out. A cap of 0 is none.
type HoldLimits struct {
	PerAddress int
	PerEmail   int
}

// DefaultHoldLimits are the caps when none are configured: a purchase takes at most 11 places
// (a registration and 10 guests), so an e-mail may hold two full purchases (one abandoned
// and its retry while the first hold still lives) and an address, which a family, a gym's
// Wi-Fi or an office may share, three.
var DefaultHoldLimits = HoldLimits{PerAddress: 33, PerEmail: 22}

// MaxPlacesPerPurchase is the most places one checkout holds: a registration and 10 guests.
const MaxPlacesPerPurchase = 11

// Held is what the live holds of one subject (a client network or a purchaser e-mail) take
// in an event: their places and when the earliest of them lapses.
type Held struct {
	Places     int
	FirstLapse time.Time
}

// Admit refuses a hold of places more places when the holds of its client network or of its
// purchaser e-mail would then take more than their cap; the caller may retry once the
// earliest of those holds lapses. A hold larger than a cap on its own is a rule problem.
func (l HoldLimits) Admit(places int, byAddress, byEmail Held, now time.Time) error {
	for _, limit := range []int{l.PerAddress, l.PerEmail} {
		if limit > 0 && places > limit {
			return &RuleError{Problems: []string{fmt.Sprintf("registrations: a purchase holds at most %d places", limit)}}
		}
	}
	if l.PerAddress > 0 && byAddress.Places+places > l.PerAddress {
		return holdLimitError("from this address", l.PerAddress, byAddress, now)
	}
	if l.PerEmail > 0 && byEmail.Places+places > l.PerEmail {
		return holdLimitError("for this purchaser e-mail", l.PerEmail, byEmail, now)
	}
	return nil
}

func holdLimitError(whose string, limit int, h Held, now time.Time) error {
	return &TooManyRequestsError{
		Message: fmt.Sprintf("%d places of this event are already held %s and not paid for (at most %d at once): "+
			"complete or abandon those checkouts, or retry after Retry-After seconds, when the earliest hold lapses",
			h.Places, whose, limit),
		RetryAfter: h.FirstLapse.Sub(now),
	}
}

// NormalEmail is an e-mail address as it is compared: trimmed and in lower case.
func NormalEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
