package ids_test

import (
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/ids"
)

func TestIDsHaveTheirPrefixAndLengthInBase62(t *testing.T) {
	for _, n := range []int{1, ids.Length, 32, 100} {
		id := ids.Random("evt_", n)
		body, ok := strings.CutPrefix(id, "evt_")
		if !ok || len(body) != n || strings.Trim(body, ids.Alphabet) != "" {
			t.Fatalf("Random(evt_, %d) = %q", n, id)
		}
	}
	if id := ids.New("ord_"); len(id) != len("ord_")+ids.Length {
		t.Fatalf("New(ord_) = %q", id)
	}
}

// TestEveryCharacterIsEquallyLikely draws 620,000 characters: each of the 62 is expected 10,000
// times with a standard deviation near 99, so a bound of ±600 fails only on a bias (the bytes
// 248-255 folded onto the first eight characters would add about 3,200 to each).
func TestEveryCharacterIsEquallyLikely(t *testing.T) {
	counts := map[rune]int{}
	for range 31_000 {
		for _, c := range ids.Random("", 20) {
			counts[c]++
		}
	}
	if len(counts) != len(ids.Alphabet) {
		t.Fatalf("%d distinct characters drawn, want %d", len(counts), len(ids.Alphabet))
	}
	for c, n := range counts {
		if n < 9_400 || n > 10_600 {
			t.Errorf("%q drawn %d times, want 10,000 ± 600", c, n)
		}
	}
}

func TestIDsDoNotRepeat(t *testing.T) {
	seen := map[string]bool{}
	for range 100_000 {
		id := ids.New("")
		if seen[id] {
			t.Fatalf("%s drawn twice", id)
		}
		seen[id] = true
	}
}
