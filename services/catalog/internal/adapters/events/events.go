// Package events holds the catalog's consumers: registration's places (the projection behind
// pricing) and the catalog's own event changes (every instance drops its cached views).
package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// PlacesGroup is the consumer group of the places projection, shared by every instance: each
// message is applied by one of them.
const PlacesGroup = "catalog-places"

// CacheGroup returns the consumer group of an instance's cache invalidation: every instance
// has its own, so each sees every change.
func CacheGroup(instanceID string) string { return "catalog-cache-" + instanceID }

// PlacesHandler applies registration's places messages: podium.registration.places.changed.v2
// (the categories of one event a transaction changed) and the v1 messages registration
// published before it (one category each). The projection keeps the highest version per
// category in one conditional upsert, so redeliveries, replays and any arrival order are
// harmless without an inbox. Messages of other types are skipped (a message without a type is
// read as v1, as they were first sent); undecodable or invalid places and an unknown version
// are poison, a failure to apply them is retried.
func PlacesHandler(svc *app.Service, log *slog.Logger) broker.Handler {
	return func(ctx context.Context, m broker.Message) error {
		typ := m.Headers[broker.HeaderType]
		if typ != "" {
			ok, err := broker.Accepts(m, domain.PlacesTopic, domain.PlacesChangedType, domain.PlacesChangedV1Type)
			if !ok {
				if err == nil {
					log.DebugContext(ctx, "skipping a message of another type", "topic", m.Topic, "type", typ)
				}
				return err
			}
		}
		p, err := decodePlaces(m, typ)
		if err != nil {
			return fmt.Errorf("%w: %w", app.ErrInvalidPlaces, err)
		}
		err = svc.ApplyPlaces(ctx, p)
		if errors.Is(err, app.ErrInvalidPlaces) {
			return broker.Poison(err)
		}
		return err
	}
}

// decodePlaces decodes m's data as the places message of its type.
func decodePlaces(m broker.Message, typ string) (domain.PlacesChanged, error) {
	if typ == domain.PlacesChangedType {
		var p domain.PlacesChanged
		err := broker.Decode(m, &p)
		return p, err
	}
	var p domain.PlacesChangedV1
	err := broker.Decode(m, &p)
	return p.Current(), err
}

// Invalidator drops cached views.
type Invalidator interface {
	EventChanged(organizerID, eventID string)
}

// ChangesHandler drops this instance's cached views of the organizer of each
// podium.catalog.event.changed.v1 message. Messages of other types are skipped; one that does
// not decode, names no organizer or has an unknown version is poison.
func ChangesHandler(inval Invalidator) broker.Handler {
	return func(_ context.Context, m broker.Message) error {
		if ok, err := broker.Accepts(m, domain.EventsTopic, domain.EventChangedType); !ok {
			return err
		}
		var c struct { // the object it carries is not read here
			EventID     string `json:"eventId"`
			OrganizerID string `json:"organizerId"`
		}
		if err := broker.Decode(m, &c); err != nil {
			return err
		}
		if c.OrganizerID == "" {
			return broker.Poisonf("%s at offset %d names no organizer", domain.EventChangedType, m.Offset)
		}
		inval.EventChanged(c.OrganizerID, c.EventID)
		return nil
	}
}

// DeadLetters returns the dead letters of the catalog's consumers (operator command).
func DeadLetters(cluster broker.Cluster) broker.DeadLetters {
	return broker.DeadLetters{Cluster: cluster, Service: "catalog", Topics: []string{domain.EventsTopic, domain.PlacesTopic}}
}
