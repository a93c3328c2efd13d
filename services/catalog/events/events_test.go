package events_test

import (
	"testing"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/catalog/events"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// TestEveryEventCatalogBuildsMatchesItsSchema checks the message the store enqueues for a
// changed event (Event.ChangedEvent) against the published schema.
func TestEveryEventCatalogBuildsMatchesItsSchema(t *testing.T) {
	e := domain.Event{ID: domain.NewID(domain.EventIDPrefix), OrganizerID: "org_7Ks2NdQ9bYw4RmTx8Ve1", Name: "Summer Throwdown", Version: 4}
	brokertest.LoadContracts(t, events.Files).Check(t,
		brokertest.Produced{Topic: domain.EventsTopic, Type: domain.EventChangedType, Data: e.ChangedEvent()})
}
