package domain

import (
	"regexp"

	"github.com/podiumhq/podium/libs/ids"
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

// previewTokenLen is the number of random characters of a preview token (about 190 bits).
const previewTokenLen = 32

// NewID returns prefix followed by 20 random base62 characters.
func NewID(prefix string) string { return ids.New(prefix) }

// NewPreviewToken returns a new preview token: prv_ and 32 random base62 characters.
func NewPreviewToken() string { return ids.Random(PreviewTokenPrefix, previewTokenLen) }

var organizerIDPattern = regexp.MustCompile(`^org_[A-Za-z0-9_-]{1,100}$`)

// ValidOrganizerID reports whether s has the form of an organizer id (org_…). The catalog does
// not own organizers: auth does, and the gateway's identity token names them.
func ValidOrganizerID(s string) bool { return organizerIDPattern.MatchString(s) }
