package testkit_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
)

func TestClockStopsWhereSetAndMovesOnlyWhenAdvanced(t *testing.T) {
	var c testkit.Clock
	c.Advance(time.Hour)
	if d := time.Until(c.Now()); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("an advanced running clock is %v ahead, want an hour", d)
	}
	at := time.Date(2027, 1, 31, 22, 59, 59, 999_000_000, time.UTC)
	c.Set(at)
	for range 2 { // and again: it stays there
		if got := c.Now(); !got.Equal(at) {
			t.Fatalf("a set clock reads %v, want %v", got, at)
		}
	}
	c.Advance(time.Millisecond)
	if want := at.Add(time.Millisecond); !c.Now().Equal(want) {
		t.Fatalf("after Advance it reads %v, want %v", c.Now(), want)
	}
}
