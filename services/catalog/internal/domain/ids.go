package domain

import (
	"crypto/rand"
	"regexp"
	"strings"
)

// Id prefixes of the resources the catalog owns.
const (
	EventIDPrefix      = "evt_"
	CategoryIDPrefix   = "cat_"
	TierIDPrefix       = "tir_"
	FormFieldIDPrefix  = "fld_"
	WaiverIDPrefix     = "wvr_"
	SponsorIDPrefix    = "spn_"
	SupplementIDPrefix = "sup_"
	OptionIDPrefix     = "opt_"
	PromocodeIDPrefix  = "prm_"
	FeeIDPrefix        = "fee_"
	PreviewTokenPrefix = "prv_"
)

const (
	idLen           = 20 // about 119 bits
	previewTokenLen = 32 // about 190 bits
	idAlphabet      = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// unbiasedCeiling is 4*62: bytes at or above it are redrawn so every character is equally likely.
	unbiasedCeiling = 248
)

// NewID returns prefix followed by 20 uniformly random base62 characters.
func NewID(prefix string) string { return random(prefix, idLen) }

// NewPreviewToken returns a new preview token: prv_ and 32 random base62 characters.
func NewPreviewToken() string { return random(PreviewTokenPrefix, previewTokenLen) }

func random(prefix string, n int) string {
	var b strings.Builder
	b.Grow(len(prefix) + n)
	b.WriteString(prefix)
	buf := make([]byte, 2*n)
	for written := 0; written < n; {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails on supported platforms
		for _, c := range buf {
			if c < unbiasedCeiling && written < n {
				b.WriteByte(idAlphabet[c%62])
				written++
			}
		}
	}
	return b.String()
}

var organizerIDPattern = regexp.MustCompile(`^org_[A-Za-z0-9_-]{1,100}$`)

// ValidOrganizerID reports whether s has the form of an organizer id (org_…). The catalog does
// not own organizers: auth does, and the gateway's identity token names them.
func ValidOrganizerID(s string) bool { return organizerIDPattern.MatchString(s) }
