package domain

// OrganizerScope is whose events a read may see: one organizer's. It is explicit so that no
// caller can widen a read by accident: the zero OrganizerScope, like ForOrganizer(""), sees no
// event at all.
type OrganizerScope struct{ organizerID string }

// ForOrganizer returns the scope of the organizer's events.
func ForOrganizer(organizerID string) OrganizerScope { return OrganizerScope{organizerID: organizerID} }

// Organizer returns the organizer whose events the scope sees, and false when it sees none.
func (s OrganizerScope) Organizer() (string, bool) { return s.organizerID, s.organizerID != "" }
