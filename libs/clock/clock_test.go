package clock_test

import (
	"os"
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

func TestAShiftedClockRunsAheadByWhatItsFileSays(t *testing.T) {
	path := t.TempDir() + "/shift"
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	now := base
	c := clock.Shifted(func() time.Time { return now }, path)
	if got := c(); !got.Equal(base) {
		t.Fatalf("without a file: %v, want %v", got, base)
	}
	if err := os.WriteFile(path, []byte("26h\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := c(); !got.Equal(base) {
		t.Fatalf("read again within 100 ms: %v, want the old shift", got)
	}
	now = now.Add(100 * time.Millisecond)
	if got, want := c(), now.Add(26*time.Hour); !got.Equal(want) {
		t.Fatalf("after the file changed: %v, want %v", got, want)
	}
	if err := os.WriteFile(path, []byte("soon"), 0o600); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Second)
	if got, want := c(), now.Add(26*time.Hour); !got.Equal(want) {
		t.Fatalf("a file that does not parse: %v, want the last shift kept (%v)", got, want)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Second)
	if got := c(); !got.Equal(now) {
		t.Fatalf("file removed: %v, want no shift", got)
	}
}
