package testkit_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

func TestEventuallyBacksOffUntilTheCheckHolds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var asked []time.Duration
		testkit.Eventually(t, time.Minute, func() string {
			asked = append(asked, time.Since(start))
			if time.Since(start) < time.Second {
				return "not yet"
			}
			return ""
		})
		want := []time.Duration{0, 10, 30, 70, 150, 310, 560, 810, 1060}
		if len(asked) != len(want) {
			t.Fatalf("asked at %v, want %d checks", asked, len(want))
		}
		for i, ms := range want {
			if asked[i] != ms*time.Millisecond {
				t.Fatalf("asked at %v, want at %v ms", asked, want)
			}
		}
	})
}
