package domain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// HoldLimits caps the places that holds not yet paid for may take at once in one event, per
// client network (the buyer's address; an IPv6 address's /64) and per purchaser e-mail, so
// that holding places without paying is no way to sell an event out. A cap of 0 is none.
type HoldLimits struct {
	PerAddress int
	PerEmail   int
}

// DefaultHoldLimits are the caps the configuration defaults to: a purchase takes at most 11
// places (a registration and 10 guests), so an e-mail holds two full purchases (one abandoned
// and its retry while the first hold still lives) and an address, which a family, a gym's
// Wi-Fi or an office may share, three.
var DefaultHoldLimits = HoldLimits{PerAddress: 33, PerEmail: 22}

// MaxPlacesPerPurchase is the most places one checkout holds: a registration and 10 guests.
const MaxPlacesPerPurchase = 11

// LiveHold is a hold of a capped subject (a client network or a purchaser e-mail) that counts
// against its cap: a PENDING order whose expiry has not passed, with the places it holds.
type LiveHold struct {
	OrderID   string
	Places    int
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Admit decides a hold of places more places in an event whose live holds of the same client
// network are byAddress and of the same purchaser e-mail byEmail (each in any order).
//
// A purchaser's newest checkout takes precedence over their abandoned ones: when the hold
// would put the e-mail over its cap, Admit returns the e-mail's oldest holds to release first,
// just enough to make room, so nobody can lock an e-mail out by holding places under it. The
// client network's cap refuses instead (too many requests, retried after
// enough of its holds, those released aside, will have lapsed). A hold larger than a cap on
// its own is a rule problem.
func (l HoldLimits) Admit(places int, byAddress, byEmail []LiveHold, now time.Time) (release []string, err error) {
	for _, limit := range []int{l.PerAddress, l.PerEmail} {
		if limit > 0 && places > limit {
			return nil, fault.NewUnprocessable(fmt.Sprintf("registrations: a purchase holds at most %d places", limit))
		}
	}
	if l.PerEmail > 0 {
		release = oldestBeyond(byEmail, l.PerEmail-places)
	}
	if l.PerAddress > 0 {
		released := make(map[string]bool, len(release))
		for _, id := range release {
			released[id] = true
		}
		kept := slices.DeleteFunc(slices.Clone(byAddress), func(h LiveHold) bool { return released[h.OrderID] })
		if held := placesOf(kept); held+places > l.PerAddress {
			return nil, fault.NewTooManyRequests(
				fmt.Sprintf("%d places of this event are already held from this address and not paid for (at most %d at once): "+
					"complete or abandon those checkouts, or retry after Retry-After seconds, when enough of them have lapsed",
					held, l.PerAddress),
				lapseFreeing(kept, held+places-l.PerAddress).Sub(now))
		}
	}
	return release, nil
}

// oldestBeyond returns the ids of the oldest holds to release so that the rest hold at most
// room places.
func oldestBeyond(holds []LiveHold, room int) []string {
	held := placesOf(holds)
	if held <= room {
		return nil
	}
	sorted := slices.SortedFunc(slices.Values(holds), func(a, b LiveHold) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.OrderID, b.OrderID))
	})
	var out []string
	for _, h := range sorted {
		if held <= room {
			break
		}
		out = append(out, h.OrderID)
		held -= h.Places
	}
	return out
}

// lapseFreeing is when holds will have lapsed that free at least need places: their expiries
// walked in order.
func lapseFreeing(holds []LiveHold, need int) time.Time {
	sorted := slices.SortedFunc(slices.Values(holds), func(a, b LiveHold) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
	var at time.Time
	freed := 0
	for _, h := range sorted {
		at = h.ExpiresAt
		if freed += h.Places; freed >= need {
			break
		}
	}
	return at
}

func placesOf(holds []LiveHold) int {
	n := 0
	for _, h := range holds {
		n += h.Places
	}
	return n
}

// NormalEmail is an e-mail address as it is compared: trimmed and in lower case.
func NormalEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
