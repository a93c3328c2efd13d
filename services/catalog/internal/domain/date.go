package domain

import (
	"fmt"
	"sync"
	"time"
)

// Date is a calendar date without a time or a zone, such as an event's start date or the
// limit of a price tier.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate reads a real calendar date in the form YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("%q is not a calendar date YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// DateOf returns the calendar date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// String returns the date as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// UTC returns 00:00 UTC of the date, the form dates are stored in.
func (d Date) UTC() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// Compare returns -1, 0 or +1 as d is before, equal to or after o.
func (d Date) Compare(o Date) int { return d.UTC().Compare(o.UTC()) }

// Before reports whether d is before o.
func (d Date) Before(o Date) bool { return d.Compare(o) < 0 }

// StartIn returns the instant the date begins in loc: the first instant whose local date in
// loc is d or later. That is 00:00 local time, except in a zone whose clocks jump over
// midnight on that date (the day then begins at the jump) and, when clocks go back over
// midnight, the first of the two local midnights.
func (d Date) StartIn(loc *time.Location) time.Time {
	naive := d.UTC()
	// Offsets lie between -12h and +14h, so local midnight lies in [naive-14h, naive+12h];
	// walk the zone periods from just before that window.
	t := naive.Add(-15 * time.Hour)
	end := naive.Add(13 * time.Hour)
	for t.Before(end) {
		local := t.In(loc)
		_, offset := local.Zone()
		// Within this period local time is t+offset onwards: midnight is at naive-offset.
		midnight := naive.Add(-time.Duration(offset) * time.Second)
		_, periodEnd := local.ZoneBounds()
		if periodEnd.IsZero() || midnight.Before(periodEnd) {
			if midnight.Before(t) { // cannot happen while local time at t is before midnight
				return t
			}
			return midnight
		}
		// The period ends before local midnight; if the clocks jump past it, the day begins at
		// the jump.
		if !DateOf(periodEnd.In(loc)).Before(d) {
			return periodEnd
		}
		t = periodEnd
	}
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// zones caches loaded time zones: loading one reads the tz database.
var zones sync.Map // name -> *time.Location

// Location returns the IANA time zone name, or an error when it is not one. "Local" and the
// empty name, which time.LoadLocation accepts, are refused.
func Location(name string) (*time.Location, error) {
	if v, ok := zones.Load(name); ok {
		return v.(*time.Location), nil
	}
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("timezone %q is not an IANA time zone", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("timezone %q is not an IANA time zone", name)
	}
	zones.Store(name, loc)
	return loc, nil
}
