package events_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/services/catalog/events"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

// TestEveryEventCatalogBuildsMatchesItsSchema checks the messages the use cases enqueue
// against the published schemas: a changed event (app.EventChangedMessage) of the demo event,
// every optional part present, and the pricing switches of its categories
// (app.PricingChangedMessages) when places fill a tier's bound and a quota.
func TestEveryEventCatalogBuildsMatchesItsSchema(t *testing.T) {
	now := time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)
	draft, err := importfile.Parse(importfile.YAML, []byte(catalogtest.Demo(t, "summer-throwdown")))
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := domain.Merge(nil, draft, "org_7Ks2NdQ9bYw4RmTx8Ve1", now)
	if err != nil {
		t.Fatal(err)
	}
	before, err := e.PricingAt(now, domain.AllCategories)
	if err != nil {
		t.Fatal(err)
	}
	for i := range e.Categories {
		if q := e.Categories[i].Quota; q != nil {
			e.Categories[i].Places = domain.Places{Confirmed: *q - 1, Held: 1, Version: 9}
		}
	}
	after, err := e.PricingAt(now, domain.AllCategories)
	if err != nil {
		t.Fatal(err)
	}
	switched := app.PricingChangedMessages(e.OrganizerID, before, after, now, true)
	if len(switched) != 3 {
		t.Fatalf("%d categories switched, want every one with a quota", len(switched))
	}
	changed, err := app.EventChangedMessage(e, now)
	if err != nil {
		t.Fatal(err)
	}
	var built []brokertest.Produced
	for _, m := range append([]domain.Message{changed}, switched...) {
		built = append(built, brokertest.Produced{Topic: m.Topic, Type: m.Type, Data: m.Data})
	}
	brokertest.LoadContracts(t, events.Files).Check(t, built...)
}
