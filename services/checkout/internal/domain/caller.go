package domain

// Caller is on whose behalf checkout calls its peers: the organizer and publishable key of the
// purchase (the gateway's verified principal of the request being served, or the checkout
// record's on background paths), so the callee scopes by that organizer, and the request id,
// so the logs of both join up.
type Caller struct {
	OrganizerID string
	KeyID       string
	RequestID   string
}
