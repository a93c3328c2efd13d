package events_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/broker/brokertest"
	"github.com/podiumhq/podium/libs/testkit"
	catalogevents "github.com/podiumhq/podium/services/catalog/events"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	registrationevents "github.com/podiumhq/podium/services/registration/events"
)

// TestRegistrationsPublishedPlacesAreApplied: the example registration publishes with its
// schema is applied with every count it carries; its next version is poison.
func TestRegistrationsPublishedPlacesAreApplied(t *testing.T) {
	r, inv := &repo{}, &invalidator{}
	h := events.PlacesHandler(app.New(r, time.Now, inv), testkit.Discard())
	places := brokertest.LoadContracts(t, registrationevents.Files).Example(t, domain.PlacesChangedType)
	if places.Topic != domain.PlacesTopic {
		t.Fatalf("registration publishes on %s, the catalog reads %s", places.Topic, domain.PlacesTopic)
	}
	if err := h(t.Context(), places); err != nil {
		t.Fatal(err)
	}
	live := true
	want := domain.PlacesChanged{
		EventID: "evt_2Hf9KqW4mZp7Tx1Lc8Rb", Livemode: &live, OccurredAt: time.Date(2026, 5, 9, 18, 3, 21, 447_000_000, time.UTC),
		Categories: []domain.CategoryPlaces{
			{CategoryID: "cat_3Lm7Qa1Zr8Vt2Kp5Wc9E", Confirmed: 12, Held: 0, Version: 13},
			{CategoryID: "cat_8Wd3Pm6Yt1Qz5Rk9Nx2C", Confirmed: 37, Held: 4, Version: 52},
		},
	}
	if len(r.applied) != 1 || !reflect.DeepEqual(r.applied[0], want) || len(inv.places) != 1 {
		t.Fatalf("applied %+v, want %+v; invalidated %v", r.applied, want, inv.places)
	}
	if err := h(t.Context(), brokertest.NextVersion(t, places)); !broker.IsPoison(err) {
		t.Fatalf("the next version: %v, want poison", err)
	}
}

// TestTheCatalogsPublishedChangeInvalidatesItsViews: the catalog reads its own published
// example like any consumer: the organizer's and event's views are dropped; its next version
// is poison; a pricing switch is skipped.
func TestTheCatalogsPublishedChangeInvalidatesItsViews(t *testing.T) {
	inv := &invalidator{}
	h := events.ChangesHandler(inv)
	changed := brokertest.LoadContracts(t, catalogevents.Files).Example(t, domain.EventChangedType)
	if err := h(t.Context(), changed); err != nil {
		t.Fatal(err)
	}
	if len(inv.events) != 1 || inv.events[0] != "org_7Ks2NdQ9bYw4RmTx8Ve1/evt_2Hf9KqW4mZp7Tx1Lc8Rb" {
		t.Fatalf("invalidated %v", inv.events)
	}
	if err := h(t.Context(), brokertest.NextVersion(t, changed)); !broker.IsPoison(err) {
		t.Fatalf("the next version: %v, want poison", err)
	}
	// A pricing switch on the same topic is not an event change: skipped.
	pricing := brokertest.LoadContracts(t, catalogevents.Files).Example(t, domain.PricingChangedType)
	if err := h(t.Context(), pricing); err != nil || len(inv.events) != 1 {
		t.Fatalf("pricing.changed: %v, invalidated %v", err, inv.events)
	}
}
