package domain

// EventSource is the CloudEvents source of every message the catalog publishes.
const EventSource = "podium/catalog"

// EventsTopic carries catalog.events.v1 messages; the message key is the event id.
const EventsTopic = "catalog.events.v1"

// EventChangedType is the type of the message written whenever an import changes an event.
const EventChangedType = "podium.catalog.event.changed.v1"

// PlacesTopic is registration's topic of places; the message key is the event id
// (the category id for the older PlacesChangedV1Type).
const PlacesTopic = "registration.places.v1"

// PlacesChangedType is the type of the messages on PlacesTopic: the places of categories of
// one event that a transaction changed.
const PlacesChangedType = "podium.registration.places.changed.v2"

// PlacesChangedV1Type is the type registration published before, one message per category;
// such messages may still be in the topic (or replayed) and are applied as well.
const PlacesChangedV1Type = "podium.registration.places.changed.v1"

// EventChanged is the data of a podium.catalog.event.changed.v1 message: the event's new
// version. Consumers read the event itself from the internal API when they need it.
type EventChanged struct {
	EventID     string `json:"eventId"`
	OrganizerID string `json:"organizerId"`
	Version     int64  `json:"version"`
}

// ChangedEvent returns the message announcing e's current version.
func (e Event) ChangedEvent() EventChanged {
	return EventChanged{EventID: e.ID, OrganizerID: e.OrganizerID, Version: e.Version}
}
