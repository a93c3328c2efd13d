package domain_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

func mustDate(t *testing.T, s string) domain.Date {
	t.Helper()
	d, err := domain.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := domain.Location(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestStartIn checks where a calendar date begins in zones with unusual offsets and around
// daylight-saving changes, including zones whose clocks jump or fall back across midnight.
func TestStartIn(t *testing.T) {
	cases := []struct {
		zone, date, want string
	}{
		{"Europe/Madrid", "2027-01-15", "2027-01-14T23:00:00Z"},
		{"Europe/Madrid", "2027-07-15", "2027-07-14T22:00:00Z"},
		// Clocks go forward at 02:00 on 28 March 2027: that day starts at +01, the next at +02.
		{"Europe/Madrid", "2027-03-28", "2027-03-27T23:00:00Z"},
		{"Europe/Madrid", "2027-03-29", "2027-03-28T22:00:00Z"},
		// Clocks go back at 03:00 on 31 October 2027: that day starts at +02, the next at +01.
		{"Europe/Madrid", "2027-10-31", "2027-10-30T22:00:00Z"},
		{"Europe/Madrid", "2027-11-01", "2027-10-31T23:00:00Z"},
		{"Pacific/Kiritimati", "2027-01-01", "2026-12-31T10:00:00Z"}, // UTC+14
		{"Etc/GMT+12", "2027-01-01", "2027-01-01T12:00:00Z"},         // UTC-12
		{"UTC", "2027-01-01", "2027-01-01T00:00:00Z"},
		{"Asia/Kolkata", "2027-01-01", "2026-12-31T18:30:00Z"},
		// São Paulo jumped from 00:00 to 01:00 on 4 November 2018: the day began at 01:00 -02.
		{"America/Sao_Paulo", "2018-11-04", "2018-11-04T03:00:00Z"},
		// ...and fell back at midnight on 17 February 2019, from 00:00 -02 to 23:00 -03 of the
		// 16th: the 16th lasted 25 hours and the 17th began at 00:00 -03.
		{"America/Sao_Paulo", "2019-02-17", "2019-02-17T03:00:00Z"},
	}
	for _, c := range cases {
		t.Run(c.zone+" "+c.date, func(t *testing.T) {
			got := mustDate(t, c.date).StartIn(mustLoc(t, c.zone))
			if !got.Equal(utc(c.want)) {
				t.Fatalf("StartIn = %s, want %s", got.UTC().Format(time.RFC3339), c.want)
			}
			if before := got.Add(-time.Nanosecond).In(mustLoc(t, c.zone)); !domain.DateOf(before).Before(mustDate(t, c.date)) {
				t.Fatalf("the instant before %s is already on %s locally (%s)", got, c.date, before)
			}
		})
	}
}

func TestParseDateAndLocation(t *testing.T) {
	for _, s := range []string{"2027-02-30", "2027-2-3", "", "2027-02-03T00:00:00Z", "2026-02-29"} {
		if _, err := domain.ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) accepted", s)
		}
	}
	if d := mustDate(t, "2028-02-29"); d.String() != "2028-02-29" || !d.Before(mustDate(t, "2028-03-01")) || d.Compare(d) != 0 {
		t.Fatalf("date %v", d)
	}
	for _, name := range []string{"", "Local", "Europe/Madird", "../../etc/passwd", "europe/madrid"} {
		if _, err := domain.Location(name); err == nil {
			t.Errorf("Location(%q) accepted", name)
		}
	}
	if _, err := domain.Location("Europe/Madird"); err.Error() != `timezone "Europe/Madird" is not an IANA time zone` {
		t.Fatalf("error %q", err)
	}
}
