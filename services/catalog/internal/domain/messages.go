package domain

import "time"

// EventSource is the CloudEvents source of every message the catalog publishes.
const EventSource = "podium/catalog"

// EventsTopic carries catalog.events.v1 messages; the message key is the event id.
const EventsTopic = "catalog.events.v1"

// EventChangedType is the type of the message written whenever an import changes an event.
const EventChangedType = "podium.catalog.event.changed.v1"

// PricingChangedType is the type of the message written whenever a category's active price
// tier switches or it becomes sold out, or no longer sold out.
const PricingChangedType = "podium.catalog.pricing.changed.v1"

// PlacesTopic is registration's topic of places; the message key is the event id
// (the category id for the older PlacesChangedV1Type).
const PlacesTopic = "registration.places.v1"

// PlacesChangedType is the type of the messages on PlacesTopic: the places of categories of
// one event that a transaction changed.
const PlacesChangedType = "podium.registration.places.changed.v2"

// PlacesChangedV1Type is the type registration published before, one message per category;
// such messages may still be in the topic (or replayed) and are applied as well.
const PlacesChangedV1Type = "podium.registration.places.changed.v1"

// Message is an event to publish through the outbox, in the transaction of the change.
type Message struct {
	Topic string
	Key   string
	Type  string
	Data  any
}

// EventChanged is the data of a podium.catalog.event.changed.v1 message: the event's new
// version and, as Object, the event as the organizer API's event detail shows it after the
// change (absent when too large for a message).
type EventChanged struct {
	EventID     string `json:"eventId"`
	OrganizerID string `json:"organizerId"`
	Version     int64  `json:"version"`
	// Livemode is true: the catalog has live data only.
	Livemode   bool      `json:"livemode"`
	OccurredAt time.Time `json:"occurredAt"`
	Object     any       `json:"object,omitempty"`
}

// PricingChanged is the data of a podium.catalog.pricing.changed.v1 message: the organizer
// pricing card of one category, with its event's id, as Object.
type PricingChanged struct {
	OrganizerID string    `json:"organizerId"`
	EventID     string    `json:"eventId"`
	Livemode    bool      `json:"livemode"`
	OccurredAt  time.Time `json:"occurredAt"`
	Object      any       `json:"object"`
}
