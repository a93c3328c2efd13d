package edgecache

import (
	"context"
	"encoding/json"

	"github.com/podiumhq/podium/libs/broker"
)

// CatalogTopic is where the catalog announces changed events (services/catalog/README.md).
const CatalogTopic = "catalog.events.v1"

// typeEventChanged is the catalog's message for an event whose content changed.
const typeEventChanged = "podium.catalog.event.changed.v1"

// HandleCatalogEvent drops every kept answer of the organizer whose event changed: an answer
// may list or show any of its events. A change that does not say whose it is drops every
// answer (retrying it would hold back the changes behind it). Other message types are ignored.
func (c *Cache) HandleCatalogEvent(_ context.Context, m broker.Message) error {
	if m.Headers[broker.HeaderType] != typeEventChanged {
		return nil
	}
	var e struct {
		OrganizerID string `json:"organizerId"`
	}
	if err := json.Unmarshal(m.Value, &e); err != nil || e.OrganizerID == "" {
		c.PurgeAll()
		return nil
	}
	c.Purge(e.OrganizerID)
	return nil
}
