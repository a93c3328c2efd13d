package domain

import (
	"fmt"
	"math"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Search paging bounds.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 100
)

// Sort orders of a registration search; each ends with the ticket id as a stable tiebreak.
const (
	SortCreatedDesc  = "createdAt-desc"
	SortCreatedAsc   = "createdAt-asc"
	SortAthleteAsc   = "athlete-asc"
	SortAmountDesc   = "amount-desc"
	SortBibAsc       = "bib-asc"
	SortCategoryAsc  = "category-asc"
	TicketStatusAll  = "ALL"
	CheckInCheckedIn = "checked-in"
	CheckInPending   = "pending"
)

// Custom field filter operators.
const (
	OpContains   = "contains"
	OpEquals     = "equals"
	OpHasAny     = "has-any"
	OpIsEmpty    = "is-empty"
	OpIsNotEmpty = "is-not-empty"
)

// CustomFieldFilter filters on a custom field's value.
type CustomFieldFilter struct {
	FieldID  string `json:"fieldId"`
	Operator string `json:"operator"`
	Value    any    `json:"value"`
}

// SupplementFilter keeps tickets whose registration chose the supplement (with OptionIDs: one
// of those options).
type SupplementFilter struct {
	SupplementID string   `json:"supplementId"`
	OptionIDs    []string `json:"optionIds"`
}

// SearchQuery is a normalised registration search.
type SearchQuery struct {
	Text               string
	AthleteID          string
	EventID            string
	TicketID           string
	CategoryID         string
	Gender             string
	AgeMin, AgeMax     *int
	CheckIn            string
	Sort               string
	OrderStatus        string
	TicketStatus       string
	ParticipantStatus  string
	CancelledFrom      *time.Time
	CancelledTo        *time.Time
	CustomFieldFilters []CustomFieldFilter
	SupplementFilters  []SupplementFilter
	Limit, Offset      int
}

// SearchRequest is a search as sent (optional fields nil).
type SearchRequest struct {
	Search                string              `json:"search"`
	AthleteID             string              `json:"athleteId"`
	EventID               string              `json:"eventId"`
	TicketID              string              `json:"ticketId"`
	CategoryID            string              `json:"categoryId"`
	Gender                string              `json:"gender"`
	AgeMin                *float64            `json:"ageMin"`
	AgeMax                *float64            `json:"ageMax"`
	CheckIn               string              `json:"checkIn"`
	SortBy                string              `json:"sortBy"`
	Status                string              `json:"status"`
	TicketStatus          string              `json:"ticketStatus"`
	ParticipantDataStatus string              `json:"participantDataStatus"`
	CancelledFrom         []string            `json:"cancelledFrom"`
	CancelledTo           []string            `json:"cancelledTo"`
	CustomFieldFilters    []CustomFieldFilter `json:"customFieldFilters"`
	SupplementFilters     []SupplementFilter  `json:"supplementFilters"`
	Limit                 *float64            `json:"limit"`
	Offset                *float64            `json:"offset"`
}

// Normalize checks r and applies the defaults: limit 20, offset 0, sort createdAt-desc,
// ticketStatus ACTIVE; of several cancelledFrom the latest applies, of cancelledTo the earliest.
func (r SearchRequest) Normalize() (SearchQuery, error) {
	var p fault.Problems
	q := SearchQuery{
		Text: r.Search, AthleteID: r.AthleteID, EventID: r.EventID, TicketID: r.TicketID, CategoryID: r.CategoryID,
		Gender: r.Gender, CheckIn: r.CheckIn, Sort: r.SortBy,
		OrderStatus: r.Status, TicketStatus: r.TicketStatus, ParticipantStatus: r.ParticipantDataStatus,
		CustomFieldFilters: r.CustomFieldFilters, SupplementFilters: r.SupplementFilters,
		Limit: DefaultSearchLimit,
	}
	if len([]rune(r.Search)) > 100 {
		p.Add("search: must be at most 100 characters")
	}
	oneOf(&p, "gender", q.Gender, GenderMale, GenderFemale)
	oneOf(&p, "checkIn", q.CheckIn, CheckInCheckedIn, CheckInPending)
	oneOf(&p, "sortBy", q.Sort, SortCreatedDesc, SortCreatedAsc, SortAthleteAsc, SortAmountDesc, SortBibAsc, SortCategoryAsc)
	oneOf(&p, "status", q.OrderStatus, string(OrderPending), string(OrderCompleted), string(OrderFailed), string(OrderCancelled), string(OrderRefunded))
	oneOf(&p, "ticketStatus", q.TicketStatus, string(TicketActive), string(TicketCancelled), TicketStatusAll)
	oneOf(&p, "participantDataStatus", q.ParticipantStatus, ParticipantsReady, ParticipantsPending)
	q.AgeMin = age(&p, "ageMin", r.AgeMin)
	q.AgeMax = age(&p, "ageMax", r.AgeMax)
	if q.Sort == "" {
		q.Sort = SortCreatedDesc
	}
	if q.TicketStatus == "" {
		q.TicketStatus = string(TicketActive)
	}
	q.CancelledFrom = bound(&p, "cancelledFrom", r.CancelledFrom, true)
	q.CancelledTo = bound(&p, "cancelledTo", r.CancelledTo, false)
	if r.Limit != nil {
		if l := *r.Limit; l != float64(int(l)) || l < 1 || l > MaxSearchLimit {
			p.Addf("limit: must be an integer from 1 to %d", MaxSearchLimit)
		} else {
			q.Limit = int(l)
		}
	}
	if r.Offset != nil {
		if o := *r.Offset; o != float64(int(o)) || o < 0 || o > 1e9 {
			p.Add("offset: must be an integer from 0 to 1000000000")
		} else {
			q.Offset = int(o)
		}
	}
	if len(r.CustomFieldFilters) > 20 {
		p.Add("customFieldFilters: must have at most 20 items")
	}
	if len(r.SupplementFilters) > 20 {
		p.Add("supplementFilters: must have at most 20 items")
	}
	for i, f := range r.CustomFieldFilters {
		checkFieldFilter(&p, fmt.Sprintf("customFieldFilters[%d]", i), f)
	}
	for i, f := range r.SupplementFilters {
		if f.SupplementID == "" {
			p.Addf("supplementFilters[%d].supplementId: is required", i)
		}
		if f.OptionIDs != nil && len(f.OptionIDs) == 0 {
			p.Addf("supplementFilters[%d].optionIds: must have at least 1 item", i)
		}
	}
	return q, p.Err(fault.Invalid)
}

// age checks an age bound: a whole number from 0 to 120. Like limit and offset it is read as
// a JSON number, because the schema's integers include 30.0 and 3e1.
func age(p *fault.Problems, name string, v *float64) *int {
	if v == nil {
		return nil
	}
	if *v != math.Trunc(*v) || *v < 0 || *v > 120 {
		p.Addf("%s: must be an integer from 0 to 120", name)
		return nil
	}
	n := int(*v)
	return &n
}

func checkFieldFilter(p *fault.Problems, path string, f CustomFieldFilter) {
	if f.FieldID == "" {
		p.Addf("%s.fieldId: is required", path)
	}
	switch f.Operator {
	case OpContains:
		if _, ok := f.Value.(string); !ok {
			p.Addf("%s.value: must be a string for the contains operator", path)
		}
	case OpEquals:
		if f.Value == nil {
			p.Addf("%s.value: is required for the equals operator", path)
		}
	case OpHasAny:
		switch v := f.Value.(type) {
		case string, float64, bool:
		case []any:
			for _, item := range v {
				if _, ok := item.(string); !ok {
					p.Addf("%s.value: must be an array of strings", path)
					break
				}
			}
		default:
			p.Addf("%s.value: is required for the has-any operator", path)
		}
	case OpIsEmpty, OpIsNotEmpty:
	default:
		p.Addf("%s.operator: must be one of contains, equals, has-any, is-empty, is-not-empty", path)
	}
}

func oneOf(p *fault.Problems, name, v string, allowed ...string) {
	if v == "" {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	p.Addf("%s: must be one of %v", name, allowed)
}

// bound parses RFC 3339 times and keeps the latest (latest true) or the earliest.
func bound(p *fault.Problems, name string, values []string, latest bool) *time.Time {
	var out *time.Time
	for i, s := range values {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			p.Addf("%s[%d]: must be an RFC 3339 date-time, for example 2025-05-01T08:00:00Z", name, i)
			continue
		}
		if out == nil || latest && t.After(*out) || !latest && t.Before(*out) {
			t := t.UTC()
			out = &t
		}
	}
	return out
}

// SearchRow is one athlete ticket with its registration and order.
type SearchRow struct {
	Ticket       Ticket
	Registration Registration
	Order        Order
}
