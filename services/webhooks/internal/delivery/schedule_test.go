package delivery_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/webhooks/internal/delivery"
)

// t0 is the first attempt of the tests' deliveries.
var t0 = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// fixed is a random source that always draws r.
func fixed(r float64) func() float64 { return func() float64 { return r } }

// middle draws the middle of the jitter's range: the schedule's waits exactly.
var middle = fixed(0.5)

func TestTheScheduleRetriesOverThreeDaysThenStops(t *testing.T) {
	want := []time.Duration{
		5 * time.Second,
		5*time.Second + 5*time.Minute,
		5*time.Second + 35*time.Minute,
		2*time.Hour + 35*time.Minute + 5*time.Second,
		7*time.Hour + 35*time.Minute + 5*time.Second,
		17*time.Hour + 35*time.Minute + 5*time.Second,
		27*time.Hour + 35*time.Minute + 5*time.Second,
		51*time.Hour + 35*time.Minute + 5*time.Second,
		72 * time.Hour, // 24 h later would be past the window: its end instead
	}
	now := t0
	for n := 1; ; n++ {
		next, ok := delivery.NextAttempt(n, t0, now, middle)
		if !ok {
			if n != len(want)+1 {
				t.Fatalf("no attempt after attempt %d, want one after each of the first %d", n, len(want))
			}
			return
		}
		if n > len(want) {
			t.Fatalf("attempt %d is followed by one at first+%s, want none", n, next.Sub(t0))
		}
		if got := next.Sub(t0); got != want[n-1] {
			t.Fatalf("after attempt %d: next at first+%s, want first+%s", n, got, want[n-1])
		}
		now = next
	}
}

func TestEachWaitVariesByTenPercentEitherWay(t *testing.T) {
	for _, c := range []struct {
		n      int
		random float64
		want   time.Duration
	}{
		{1, 0, 4500 * time.Millisecond},
		{1, 0.5, 5 * time.Second},
		{1, 0.75, 5250 * time.Millisecond},
		{2, 0, 270 * time.Second},
		{4, 0.25, 2*time.Hour - 6*time.Minute},
		{8, 0, 24*time.Hour - 144*time.Minute},
	} {
		now := t0.Add(time.Minute)
		next, ok := delivery.NextAttempt(c.n, t0, now, fixed(c.random))
		if !ok || next.Sub(now) != c.want {
			t.Errorf("NextAttempt(%d) with random %v: wait %s (%v), want %s", c.n, c.random, next.Sub(now), ok, c.want)
		}
	}
	now := t0.Add(time.Minute)
	high, _ := delivery.NextAttempt(3, t0, now, fixed(0.999999))
	if wait := high.Sub(now); wait >= 33*time.Minute || wait < 32*time.Minute+59*time.Second {
		t.Fatalf("the longest wait after attempt 3 is %s, want just under 33m", wait)
	}
}

func TestRetryAfterIsReadInSecondsOrAsADateAndBounded(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"120", 2 * time.Minute, true},
		{" 30 ", 30 * time.Second, true},
		{"0", time.Second, true},
		{"86400", 24 * time.Hour, true},
		{"999999999999", 24 * time.Hour, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), time.Second, true},
		{now.Add(72 * time.Hour).Format(http.TimeFormat), 24 * time.Hour, true},
		{"Monday, 02-Nov-26 09:10:00 GMT", 10 * time.Minute, true}, // RFC 850, which HTTP-date allows
		{"", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
	} {
		got, ok := delivery.RetryAfter(c.header, now)
		if got != c.want || ok != c.ok {
			t.Errorf("RetryAfter(%q) = %s, %v; want %s, %v", c.header, got, ok, c.want, c.ok)
		}
	}
}
