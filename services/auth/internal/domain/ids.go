package domain

import "github.com/podiumhq/podium/libs/ids"

// Id prefixes of the resources auth owns.
const (
	OrganizerIDPrefix = "org_"
	KeyIDPrefix       = "key_"
	MemberIDPrefix    = "mbr_"
)

// NewOrganizerID returns a new random organizer id.
func NewOrganizerID() string { return ids.New(OrganizerIDPrefix) }

// NewKeyID returns a new random key id.
func NewKeyID() string { return ids.New(KeyIDPrefix) }

// NewMemberID returns a new random member id.
func NewMemberID() string { return ids.New(MemberIDPrefix) }
