package domain

// OrganizerScope is whose events a read may see, and in which mode: one organizer's, with the
// places counted in live or test mode. It is explicit so that no caller can widen a read by
// accident: the zero OrganizerScope, like ForOrganizer(""), sees no event at all. Its mode is
// live unless InMode says otherwise.
type OrganizerScope struct {
	organizerID string
	test        bool
}

// ForOrganizer returns the scope of the organizer's events, live.
func ForOrganizer(organizerID string) OrganizerScope { return OrganizerScope{organizerID: organizerID} }

// InMode returns s in live mode (livemode true) or test mode.
func (s OrganizerScope) InMode(livemode bool) OrganizerScope {
	s.test = !livemode
	return s
}

// Organizer returns the organizer whose events the scope sees, and false when it sees none.
func (s OrganizerScope) Organizer() (string, bool) { return s.organizerID, s.organizerID != "" }

// Livemode reports whether the scope reads live places (else test places). A test scope may
// also see the organizer's unpublished events on the browser surface.
func (s OrganizerScope) Livemode() bool { return !s.test }
