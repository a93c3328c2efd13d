package edgecache

import (
	"context"

	"github.com/podiumhq/podium/libs/broker"
)

// CatalogTopic is where the catalog announces changed events (services/catalog/README.md).
const CatalogTopic = "catalog.events.v1"

// typeEventChanged is the catalog's message for an event whose content changed.
const typeEventChanged = "podium.catalog.event.changed.v1"

// HandleCatalogEvent drops every kept answer of the organizer whose event changed: an answer
// may list or show any of its events. A change that does not decode or does not say whose it is
// drops every answer and is poison (dead-lettered, so it is seen); so is an unknown version of
// the change, after dropping every answer too. Other message types are ignored.
func (c *Cache) HandleCatalogEvent(_ context.Context, m broker.Message) error {
	if ok, err := broker.Accepts(m, CatalogTopic, typeEventChanged); !ok {
		if err != nil {
			c.PurgeAll()
		}
		return err
	}
	var e struct {
		OrganizerID string `json:"organizerId"`
	}
	err := broker.Decode(m, &e)
	if err == nil && e.OrganizerID == "" {
		err = broker.Poisonf("%s at offset %d names no organizer", typeEventChanged, m.Offset)
	}
	if err != nil {
		c.PurgeAll()
		return err
	}
	c.Purge(e.OrganizerID)
	return nil
}
