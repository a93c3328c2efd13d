// Package clock is the services' one clock convention: the use cases take a Clock (time.Now in
// production, a clock of the test's choosing in tests) and stamp what they store with Now, the
// time in UTC at the database's microsecond precision, so that a time written and read back
// compares equal.
package clock

import "time"

// Clock returns the current time.
type Clock func() time.Time

// Now is c's current time, Stored.
func (c Clock) Now() time.Time { return Stored(c()) }

// Stored is t as the database keeps it: in UTC, at microsecond precision.
func Stored(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
