package domain

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
)

// Search bounds of the contract.
const (
	DefaultLimit    = 50
	MaxLimit        = 100
	MaxOffset       = 9007199254740991
	MaxSearchLength = 100
)

// Search selects a page of an organizer's events.
type Search struct {
	OrganizerID string
	// Text matches, ignoring case and accents, anywhere in the name, description, venue or
	// city; empty matches every event.
	Text string
	// Status filters by status; empty means any.
	Status Status
	// PublicOnly keeps published, non-private events (the browser surface).
	PublicOnly bool
	// Unpublished, with PublicOnly, keeps the non-private events of every status (a test key's
	// browser search sees drafts, as it may read them).
	Unpublished bool
	Limit       int
	Offset      int64
}

// SearchRequest is a search as a client sends it: nil means the default.
type SearchRequest struct {
	Search *string
	Status *string
	Limit  *int64
	Offset *int64
}

// NewSearch applies the defaults and bounds of the contract to r. The gateway validated the
// body already; these checks keep the service safe when reached otherwise.
func NewSearch(organizerID string, r SearchRequest, publicOnly bool) (Search, error) {
	s := Search{OrganizerID: organizerID, PublicOnly: publicOnly, Limit: DefaultLimit}
	var p fault.Problems
	if r.Search != nil {
		s.Text = strings.TrimSpace(*r.Search)
		if utf8.RuneCountInString(*r.Search) > MaxSearchLength {
			p.Addf("search must be at most %d characters long", MaxSearchLength)
		}
	}
	if r.Status != nil {
		switch {
		case publicOnly:
			p.Add("status is not allowed")
		case !slices.Contains(Statuses, Status(*r.Status)):
			p.Add("status must be one of " + joinStatuses())
		default:
			s.Status = Status(*r.Status)
		}
	}
	if r.Limit != nil {
		if *r.Limit < 1 || *r.Limit > MaxLimit {
			p.Addf("limit must be an integer from 1 to %d", MaxLimit)
		}
		s.Limit = int(min(max(*r.Limit, 1), MaxLimit))
	}
	if r.Offset != nil {
		if *r.Offset < 0 || *r.Offset > MaxOffset {
			p.Addf("offset must be an integer from 0 to %d", int64(MaxOffset))
		}
		s.Offset = *r.Offset
	}
	return s, p.Err(fault.Invalid)
}

func joinStatuses() string {
	out := make([]string, len(Statuses))
	for i, s := range Statuses {
		out[i] = string(s)
	}
	return strings.Join(out, ", ")
}

// Page is a page of events and how many match in all.
type Page struct {
	Events []Event
	Total  int64
	Limit  int
	Offset int64
}
