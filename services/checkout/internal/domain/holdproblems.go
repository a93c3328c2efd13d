package domain

import (
	"strconv"
	"strings"

	"github.com/podiumhq/podium/libs/fault"
)

// InPurchaseTerms returns err with the problems registration found in a hold's registrations
// named by the purchase's own paths (registrations[0] is the purchase, registrations[n] its
// guest n-1), so the buyer reads the path of the field they sent; any other error is returned
// as it is.
func InPurchaseTerms(err error) error {
	f, ok := fault.Of(err)
	if !ok || len(f.Problems) == 0 {
		return err
	}
	c := *f
	c.Problems = make([]string, len(f.Problems))
	for i, p := range f.Problems {
		c.Problems[i] = purchasePath(p)
	}
	return &c
}

// purchasePath rewrites a problem starting with registrations[n], or with registrations as a
// whole (the places of the purchase and its guests: the guests are what a buyer can reduce).
func purchasePath(problem string) string {
	if rest, ok := strings.CutPrefix(problem, "registrations"); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, " ")) {
		return "guestRegistrations" + rest
	}
	rest, ok := strings.CutPrefix(problem, "registrations[")
	if !ok {
		return problem
	}
	end := strings.IndexByte(rest, ']')
	n, err := strconv.Atoi(rest[:max(end, 0)])
	if end < 0 || err != nil || n < 0 {
		return problem
	}
	after := rest[end+1:]
	switch {
	case n > 0:
		return "guestRegistrations[" + strconv.Itoa(n-1) + "]" + after
	case strings.HasPrefix(after, "."):
		return after[1:]
	default:
		return fault.RootName + after
	}
}
