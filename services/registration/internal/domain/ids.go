package domain

import (
	"crypto/rand"
	"strings"
)

// Id prefixes of the resources registration owns.
const (
	OrderIDPrefix        = "ord_"
	RegistrationIDPrefix = "reg_"
	AthleteIDPrefix      = "ath_"
	TicketIDPrefix       = "tkt_"
)

// idLen is the number of random base62 characters after the prefix (about 119 bits).
const idLen = 20

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewOrderID returns a new random order id.
func NewOrderID() string { return newID(OrderIDPrefix) }

// NewRegistrationID returns a new random registration id.
func NewRegistrationID() string { return newID(RegistrationIDPrefix) }

// NewAthleteID returns a new random athlete id.
func NewAthleteID() string { return newID(AthleteIDPrefix) }

// NewTicketID returns a new random ticket id.
func NewTicketID() string { return newID(TicketIDPrefix) }

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
