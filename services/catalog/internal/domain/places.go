package domain

import (
	"errors"
	"fmt"
	"time"
)

// Places are a category's places taken, as registration last reported them.
type Places struct {
	Confirmed int
	Held      int
	// Version is the version of the registration message the counts come from.
	Version int64
}

// Taken is the number of places taken: confirmed plus held.
func (p Places) Taken() int { return p.Confirmed + p.Held }

// Available returns the places left under quota (never negative), or nil when the quota is
// unlimited.
func (p Places) Available(quota *int) *int {
	if quota == nil {
		return nil
	}
	n := max(*quota-p.Taken(), 0)
	return &n
}

// PlacesChanged is the data of a podium.registration.places.changed.v2 message: the absolute
// counts of categories of one event after a change, each with a version that grows with every
// change of its category. Livemode says whose counts they are: live or test registrations;
// a message without it (from before test mode) is live.
type PlacesChanged struct {
	EventID    string           `json:"eventId"`
	Livemode   *bool            `json:"livemode,omitempty"`
	Categories []CategoryPlaces `json:"categories"`
	OccurredAt time.Time        `json:"occurredAt"`
}

// Live reports whether m counts live places: its livemode, true when absent.
func (m PlacesChanged) Live() bool { return m.Livemode == nil || *m.Livemode }

// CategoryPlaces are one category's counts in a PlacesChanged message.
type CategoryPlaces struct {
	CategoryID string `json:"categoryId"`
	Confirmed  int    `json:"confirmed"`
	Held       int    `json:"held"`
	Version    int64  `json:"version"`
}

// PlacesChangedV1 is the data of a podium.registration.places.changed.v1 message: one
// category's counts.
type PlacesChangedV1 struct {
	EventID    string    `json:"eventId"`
	Livemode   *bool     `json:"livemode,omitempty"`
	CategoryID string    `json:"categoryId"`
	Confirmed  int       `json:"confirmed"`
	Held       int       `json:"held"`
	Version    int64     `json:"version"`
	OccurredAt time.Time `json:"occurredAt"`
}

// Current returns m as a PlacesChanged of its one category.
func (m PlacesChangedV1) Current() PlacesChanged {
	return PlacesChanged{EventID: m.EventID, Livemode: m.Livemode, OccurredAt: m.OccurredAt, Categories: []CategoryPlaces{
		{CategoryID: m.CategoryID, Confirmed: m.Confirmed, Held: m.Held, Version: m.Version},
	}}
}

// Validate refuses messages that cannot be applied.
func (m PlacesChanged) Validate() error {
	var errs []error
	if m.EventID == "" {
		errs = append(errs, errors.New("eventId is required"))
	}
	if len(m.Categories) == 0 {
		errs = append(errs, errors.New("categories must not be empty"))
	}
	seen := map[string]bool{}
	for i, c := range m.Categories {
		if c.CategoryID == "" {
			errs = append(errs, fmt.Errorf("categories[%d]: categoryId is required", i))
		}
		if seen[c.CategoryID] {
			errs = append(errs, fmt.Errorf("categories[%d]: category %s is listed twice", i, c.CategoryID))
		}
		seen[c.CategoryID] = true
		if c.Confirmed < 0 || c.Held < 0 {
			errs = append(errs, fmt.Errorf("categories[%d]: confirmed and held must not be negative", i))
		}
		if c.Version < 1 {
			errs = append(errs, fmt.Errorf("categories[%d]: version must be at least 1", i))
		}
	}
	return errors.Join(errs...)
}
