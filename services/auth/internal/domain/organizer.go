package domain

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
)

// MaxOrganizerNameLen is the longest organizer name accepted, in characters.
const MaxOrganizerNameLen = 200

// Organizer is a customer of the platform that owns API keys.
type Organizer struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// NewOrganizer validates name and returns a new organizer created at now.
func NewOrganizer(name string, now time.Time) (Organizer, error) {
	var p fault.Problems
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		p.Add("name is required")
	case utf8.RuneCountInString(name) > MaxOrganizerNameLen:
		p.Addf("name must be at most %d characters", MaxOrganizerNameLen)
	case !safetext.Valid(name):
		p.Add("name " + safetext.Rule)
	}
	if err := p.Err(fault.Invalid); err != nil {
		return Organizer{}, err
	}
	return Organizer{ID: NewOrganizerID(), Name: name, CreatedAt: now}, nil
}

// Page selects a slice of a list.
type Page struct {
	Limit  int
	Offset int
}

// Page bounds.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 100
)
