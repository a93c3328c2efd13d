package domain

import (
	"crypto/rand"
	"strings"
)

// Id prefixes of what checkout issues.
const (
	// CheckoutIDPrefix starts the id of a checkout record (one attempt to buy).
	CheckoutIDPrefix = "chk_"
	// FreeSessionIDPrefix starts the session id of a zero-total checkout (no Stripe session).
	FreeSessionIDPrefix = "free_"
)

// idLen is the number of random base62 characters after the prefix (about 119 bits).
const idLen = 20

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewCheckoutID returns a new random checkout id.
func NewCheckoutID() string { return newID(CheckoutIDPrefix) }

// NewFreeSessionID returns a new random session id for a zero-total checkout.
func NewFreeSessionID() string { return newID(FreeSessionIDPrefix) }

// newID returns prefix followed by idLen uniformly random base62 characters.
func newID(prefix string) string {
	var b strings.Builder
	b.Grow(len(prefix) + idLen)
	b.WriteString(prefix)
	buf := make([]byte, 2*idLen)
	for n := 0; n < idLen; {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails on supported platforms
		for _, c := range buf {
			// Bytes >= 248 (4*62) are redrawn so every character is equally likely.
			if c < 248 && n < idLen {
				b.WriteByte(idAlphabet[c%62])
				n++
			}
		}
	}
	return b.String()
}
