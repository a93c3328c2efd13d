package edgecache_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	catalogevents "github.com/podiumhq/podium/services/catalog/events"
	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

// TestTheCatalogsPublishedChangePurgesItsOrganizer: the example the catalog publishes with its
// schema makes the answers of the organizer it names unreachable, and only theirs; its next
// version is poison.
func TestTheCatalogsPublishedChangePurgesItsOrganizer(t *testing.T) {
	const org = "org_7Ks2NdQ9bYw4RmTx8Ve1" // the catalog's example
	c := edgecache.New(10, 1<<20, time.Minute, func() time.Time { return t0 })
	keyOf := func(org string) edgecache.Key { return key(org + "/" + fmt.Sprint(c.Generation(org))) }
	c.Put(keyOf(org), answer(200, "max-age=60", "theirs"))
	c.Put(keyOf("org_other"), answer(200, "max-age=60", "other"))

	changed := brokertest.LoadContracts(t, catalogevents.Files).Example(t, "podium.catalog.event.changed.v1")
	if changed.Topic != edgecache.CatalogTopic {
		t.Fatalf("the catalog publishes on %s, the gateway reads %s", changed.Topic, edgecache.CatalogTopic)
	}
	if err := c.HandleCatalogEvent(t.Context(), changed); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(keyOf(org)); ok || c.Generation(org) != (edgecache.Generation{Scope: 1}) {
		t.Fatal("the changed organizer's answer is still served")
	}
	if _, ok := c.Get(keyOf("org_other")); !ok {
		t.Fatal("another organizer's answer was dropped")
	}
	if err := c.HandleCatalogEvent(t.Context(), brokertest.NextVersion(t, changed)); !broker.IsPoison(err) {
		t.Fatalf("the next version: %v, want poison", err)
	}
}
