package domain

import (
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
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

// loopbackHost reports whether host is localhost or a loopback address.
func loopbackHost(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && inAny(a.Unmap(), loopbackPrefixes)
}

// urlProblem returns what is wrong with raw as a receiver's URL ("" when nothing): an https
// URL (or, with AllowLoopback, an http one to a loopback receiver) of at most MaxURLLength characters, with a host, without
// user information, whose host is no IP literal of a refused range nor a local name.
func (r Rules) urlProblem(raw string) string {
	if len(raw) > MaxURLLength {
		return "must be at most 2048 characters"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" || !safetext.Valid(raw) {
		return "must be an absolute https URL"
	}
	if u.Scheme != "https" && (u.Scheme != "http" || !r.AllowLoopback) {
		return "must be an https URL"
	}
	if u.User != nil {
		return "must not carry a user name or password"
	}
	if u.Fragment != "" {
		return "must not have a fragment"
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "" {
		return "must be an absolute https URL"
	}
	if u.Scheme == "http" && !loopbackHost(host) {
		return "must be an https URL (http only to a loopback receiver)"
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if RefusedAddress(a, r.AllowLoopback) {
			return "must not address a private, loopback, link-local or reserved network"
		}
		return ""
	}
	if (host == "localhost" || strings.HasSuffix(host, ".localhost")) && !r.AllowLoopback {
		return "must not address a private, loopback, link-local or reserved network"
	}
	return ""
}
