package domain

import (
	"errors"
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

// PlacesChanged is the data of a podium.registration.places.changed.v1 message: the absolute
// counts of a category after a change, with a version that grows with every change.
type PlacesChanged struct {
	EventID    string    `json:"eventId"`
	CategoryID string    `json:"categoryId"`
	Confirmed  int       `json:"confirmed"`
	Held       int       `json:"held"`
	Version    int64     `json:"version"`
	OccurredAt time.Time `json:"occurredAt"`
}

// Validate refuses messages that cannot be applied.
func (m PlacesChanged) Validate() error {
	var errs []error
	if m.EventID == "" || m.CategoryID == "" {
		errs = append(errs, errors.New("eventId and categoryId are required"))
	}
	if m.Confirmed < 0 || m.Held < 0 {
		errs = append(errs, errors.New("confirmed and held must not be negative"))
	}
	if m.Version < 1 {
		errs = append(errs, errors.New("version must be at least 1"))
	}
	return errors.Join(errs...)
}
