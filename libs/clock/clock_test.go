package clock_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/clock"
)

func TestNowIsUTCAtMicrosecondPrecision(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	c := clock.Clock(func() time.Time { return time.Date(2026, 11, 1, 13, 0, 0, 123456789, paris) })
	got := c.Now()
	if want := time.Date(2026, 11, 1, 12, 0, 0, 123456000, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("Now() = %v (%v), want %v", got, got.Location(), want)
	}
	if again := clock.Stored(got); !again.Equal(got) {
		t.Fatalf("Stored(Now()) = %v, want Now() unchanged", again)
	}
}
