package app

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/views"
)

// MaxEventObjectBytes bounds the organizer detail an event.changed message carries: Kafka
// refuses messages over 1 MiB, and one the relay cannot publish would hold back every later
// message of the catalog. An import file may hold more text than that (long waivers).
const MaxEventObjectBytes = 768 << 10

// EventChangedMessage announces e as a change made at: its version and its organizer event
// detail, left out when its JSON is over MaxEventObjectBytes.
func EventChangedMessage(e domain.Event, at time.Time) (domain.Message, error) {
	data := domain.EventChanged{EventID: e.ID, OrganizerID: e.OrganizerID, Version: e.Version, Livemode: true, OccurredAt: at}
	object, err := json.Marshal(views.NewOrganizerDetail(e))
	if err != nil {
		return domain.Message{}, fmt.Errorf("event changed: %w", err)
	}
	if len(object) <= MaxEventObjectBytes {
		data.Object = json.RawMessage(object)
	}
	return domain.Message{Topic: domain.EventsTopic, Key: e.ID, Type: domain.EventChangedType, Data: data}, nil
}

// PricingChangedMessages announce the cards of after that switched since before (see
// domain.PricingChanges): one message each, its organizer card, all at, in the mode of the
// places the cards count (livemode false for test registrations' counts).
func PricingChangedMessages(organizerID string, before, after domain.Pricing, at time.Time, livemode bool) []domain.Message {
	var out []domain.Message
	for _, card := range domain.PricingChanges(before, after) {
		out = append(out, domain.Message{Topic: domain.EventsTopic, Key: after.EventID, Type: domain.PricingChangedType, Data: domain.PricingChanged{
			OrganizerID: organizerID, EventID: after.EventID, Livemode: livemode, OccurredAt: at,
			Object: views.NewEventCard(after.EventID, card),
		}})
	}
	return out
}

// pricingSwitches announces the categories of an event whose pricing switched between before
// at from and after at to, both with places of the mode livemode.
func pricingSwitches(before domain.Event, from time.Time, after domain.Event, to time.Time, livemode bool) ([]domain.Message, error) {
	b, err := before.PricingAt(from, domain.AllCategories)
	if err != nil {
		return nil, err
	}
	a, err := after.PricingAt(to, domain.AllCategories)
	if err != nil {
		return nil, err
	}
	return PricingChangedMessages(after.OrganizerID, b, a, to, livemode), nil
}
