// Package ids makes the opaque ids every service issues: a type prefix ("evt_", "ord_", ...)
// and base62 characters drawn uniformly from crypto/rand.
package ids

import (
	"crypto/rand"
	"strings"
)

// Alphabet holds the characters of an id after its prefix, in the order of their values.
const Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Length is the number of random characters of an id New returns (about 119 bits).
const Length = 20

// unbiasedCeiling is 4*62: bytes at or above it are drawn again, so that every character is
// equally likely.
const unbiasedCeiling = 4 * len(Alphabet)

// New returns prefix followed by Length random base62 characters.
func New(prefix string) string { return Random(prefix, Length) }

// Random returns prefix followed by n random base62 characters.
func Random(prefix string, n int) string {
	var b strings.Builder
	b.Grow(len(prefix) + n)
	b.WriteString(prefix)
	buf := make([]byte, 2*n)
	for written := 0; written < n; {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails: it crashes the program instead
		for _, c := range buf {
			if int(c) < unbiasedCeiling && written < n {
				b.WriteByte(Alphabet[int(c)%len(Alphabet)])
				written++
			}
		}
	}
	return b.String()
}
