package domain

import (
	"errors"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// Endpoint statuses and the reasons of a disabled one.
const (
	StatusEnabled  = "enabled"
	StatusDisabled = "disabled"

	// DisabledGone: the receiver answered 410 Gone.
	DisabledGone = "gone"
	// DisabledFailing: every attempt failed for FailingLimit.
	DisabledFailing = "failing"
	// DisabledOrganizer: the organizer disabled it.
	DisabledOrganizer = "organizer"
)

// Limits of an endpoint's fields.
const (
	MaxURLLength         = 2048
	MaxDescriptionLength = 500
)

// Endpoint is an organizer's receiver of webhooks in one mode.
type Endpoint struct {
	ID             string
	OrganizerID    string
	Livemode       bool
	URL            string
	Description    string
	EventTypes     []string
	Status         string
	DisabledReason string
	DisabledAt     *time.Time
	FailingSince   *time.Time
	NotifiedAt     *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Subscribes reports whether e receives events of type t.
func (e Endpoint) Subscribes(t string) bool {
	for _, s := range e.EventTypes {
		if s == t {
			return true
		}
	}
	return false
}

// EndpointChange is what a create sets (URL and EventTypes required; Enabled is not read) or
// an update changes (nil members are kept).
type EndpointChange struct {
	URL         *string
	EventTypes  []string
	Description *string
	Enabled     *bool
}

// Rules are the deployment's settings endpoint validation follows.
type Rules struct {
	// AllowLoopback accepts http:// and loopback receivers (local runs and tests only).
	AllowLoopback bool
}

// CheckCreate returns c's problems as a new endpoint, or nil; its event types come back
// deduplicated.
func (r Rules) CheckCreate(c *EndpointChange) error {
	var p fault.Problems
	if c.URL == nil {
		p.Add("url is required")
	}
	if c.EventTypes == nil {
		p.Add("eventTypes is required")
	}
	r.check(c, &p)
	return p.Err(fault.Invalid)
}

// CheckUpdate returns c's problems as an update, or nil.
func (r Rules) CheckUpdate(c *EndpointChange) error {
	var p fault.Problems
	r.check(c, &p)
	return p.Err(fault.Invalid)
}

func (r Rules) check(c *EndpointChange, p *fault.Problems) {
	if c.URL != nil {
		if problem := r.urlProblem(*c.URL); problem != "" {
			p.Add("url " + problem)
		}
	}
	if c.EventTypes != nil {
		c.EventTypes = checkTypes(c.EventTypes, p)
	}
	if c.Description != nil {
		if !safetext.Valid(*c.Description) {
			p.Add("description " + safetext.Rule)
		} else if utf8.RuneCountInString(*c.Description) > MaxDescriptionLength {
			p.Addf("description must be at most %d characters", MaxDescriptionLength)
		}
	}
}

// checkTypes returns types deduplicated, adding a problem for an empty list and each unknown
// type.
func checkTypes(types []string, p *fault.Problems) []string {
	if len(types) == 0 {
		p.Add("eventTypes must name at least one event type")
	}
	var out []string
	for i, t := range types {
		switch {
		case !KnownType(t):
			p.Addf("eventTypes[%d] must be one of %s", i, strings.Join(EventTypes, ", "))
		case !contains(out, t):
			out = append(out, t)
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// urlProblem returns what is wrong with raw as a receiver's URL ("" when nothing): at most
// MaxURLLength characters of plain text without a fragment, and what delivery.ValidateURL
// requires of every receiver (https, a host, no user information, no refused address).
func (r Rules) urlProblem(raw string) string {
	if len(raw) > MaxURLLength {
		return "must be at most 2048 characters"
	}
	if !safetext.Valid(raw) {
		return "must be an absolute https URL"
	}
	var invalid *delivery.URLError
	if err := delivery.ValidateURL(raw, r.AllowLoopback); errors.As(err, &invalid) {
		return invalid.Reason
	}
	if u, _ := url.Parse(raw); u.Fragment != "" {
		return "must not have a fragment"
	}
	return ""
}
