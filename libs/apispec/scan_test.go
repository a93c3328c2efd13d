package apispec

import (
	"encoding/binary"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestPlainWordsAreThoseOfPlainBytes checks the eight-byte test of readString against the
// byte classes: each byte value at each place of a plain word, and random words.
func TestPlainWordsAreThoseOfPlainBytes(t *testing.T) {
	plain := func(b []byte) bool {
		for _, c := range b {
			if byteClasses[c] != plainASCII {
				return false
			}
		}
		return true
	}
	check := func(b []byte) {
		if got, want := plainWord(binary.LittleEndian.Uint64(b)), plain(b); got != want {
			t.Fatalf("% x: plainWord %v, want %v", b, got, want)
		}
	}
	for place := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[place] = byte(c)
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], r.Uint64())
		for i := range b {
			if r.IntN(3) > 0 {
				b[i] = byte(' ' + r.IntN(95))
			}
		}
		check(b[:])
	}
}

// FuzzDecimalsMatchBigRat checks the exact comparison of number literals, and their test for
// a fractional part, against big.Rat, which the schema library uses.
func FuzzDecimalsMatchBigRat(f *testing.F) {
	for _, pair := range [][2]string{{"0", "-0"}, {"1e2", "100.0"}, {"0.5", "5e-1"}, {"-1.25", "-1.2500001"},
		{"9007199254740991", "9007199254740992"}, {"123456789012345678", "1234567890123456789"}, {"0.000", "1e-400"},
		{"1.5e1", "15"}, {"10e-1", "1"}, {"-0.0e+5", "0"}} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !isNumberLiteral(a) || !isNumberLiteral(b) || isHugeNumber(a) || isHugeNumber(b) {
			return
		}
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		da, db := readDecimal([]byte(a)), readDecimal([]byte(b))
		if got, want := compareDecimals(&da, &db), ra.Cmp(rb); got != want {
			t.Errorf("%s vs %s: %d, big.Rat %d", a, b, got, want)
		}
		if got, want := da.isInteger(), ra.IsInt(); got != want {
			t.Errorf("%s is an integer: %v, big.Rat %v", a, got, want)
		}
	})
}

// isNumberLiteral reports whether s is one JSON number.
func isNumberLiteral(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil && string(n) == s
}
