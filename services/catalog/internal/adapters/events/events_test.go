package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/adapters/events"
	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// repo records the places it is asked to apply and applies versions above the last one of
// each category.
type repo struct {
	app.Repository
	applied []domain.PlacesChanged
	last    map[string]int64
}

func (r *repo) ApplyPlaces(_ context.Context, m domain.PlacesChanged, _ time.Time, _ func(before, after domain.Event) ([]domain.Message, error)) (bool, error) {
	if r.last == nil {
		r.last = map[string]int64{}
	}
	newer := false
	for _, c := range m.Categories {
		if c.Version > r.last[c.CategoryID] {
			r.last[c.CategoryID], newer = c.Version, true
		}
	}
	if newer {
		r.applied = append(r.applied, m)
	}
	return newer, nil
}

type invalidator struct{ events, places []string }

func (i *invalidator) EventChanged(org, id string) { i.events = append(i.events, org+"/"+id) }
func (i *invalidator) PlacesChanged(id string)     { i.places = append(i.places, id) }

func message(typ string, v any) broker.Message {
	b, _ := json.Marshal(v)
	return broker.Message{Value: b, Headers: map[string]string{broker.HeaderType: typ}}
}

// on hands h each message as read from topic.
func on(topic string, h broker.Handler) broker.Handler {
	return func(ctx context.Context, m broker.Message) error {
		m.Topic = topic
		return h(ctx, m)
	}
}

func TestPlacesHandler(t *testing.T) {
	r, inv := &repo{}, &invalidator{}
	h := on(domain.PlacesTopic, events.PlacesHandler(app.New(r, time.Now, inv), testkit.Discard()))
	ctx := t.Context()
	m := domain.PlacesChanged{EventID: "evt_1", Categories: []domain.CategoryPlaces{
		{CategoryID: "cat_1", Confirmed: 3, Held: 1, Version: 2}, {CategoryID: "cat_2", Confirmed: 1, Version: 5},
	}}
	for _, msg := range []broker.Message{
		message(domain.PlacesChangedType, m),
		message(domain.PlacesChangedType, m), // a redelivery: applied once, no second invalidation
		message("podium.registration.something.else.v1", m),
		// A v1 message left from before v2, and one without a type, as v1 was first sent.
		message(domain.PlacesChangedV1Type, domain.PlacesChangedV1{EventID: "evt_1", CategoryID: "cat_1", Confirmed: 4, Version: 3}),
	} {
		if err := h(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	untyped := message("", domain.PlacesChangedV1{EventID: "evt_1", CategoryID: "cat_1", Version: 4})
	untyped.Headers = nil
	if err := h(ctx, untyped); err != nil {
		t.Fatal(err)
	}
	if len(r.applied) != 3 || len(inv.places) != 3 || inv.places[0] != "evt_1" || len(r.applied[0].Categories) != 2 ||
		r.applied[1].Categories[0] != (domain.CategoryPlaces{CategoryID: "cat_1", Confirmed: 4, Version: 3}) {
		t.Fatalf("applied %+v, invalidated %v", r.applied, inv.places)
	}
	for _, bad := range []broker.Message{
		{Value: []byte("not json"), Headers: map[string]string{broker.HeaderType: domain.PlacesChangedType}},
		message(domain.PlacesChangedType, domain.PlacesChanged{Categories: []domain.CategoryPlaces{{CategoryID: "cat_1", Version: 6}}}),
		message(domain.PlacesChangedType, domain.PlacesChanged{EventID: "evt_1"}),
		message(domain.PlacesChangedType, domain.PlacesChanged{EventID: "evt_1", Categories: []domain.CategoryPlaces{
			{CategoryID: "cat_1", Version: 6}, {CategoryID: "cat_1", Version: 7},
		}}),
		message(domain.PlacesChangedType, domain.PlacesChanged{EventID: "evt_1", Categories: []domain.CategoryPlaces{{CategoryID: "cat_1", Held: -1, Version: 6}}}),
		message(domain.PlacesChangedV1Type, domain.PlacesChangedV1{CategoryID: "cat_1", Version: 6}),
	} {
		if err := h(ctx, bad); !errors.Is(err, app.ErrInvalidPlaces) || !broker.IsPoison(err) {
			t.Fatalf("invalid message %s: %v, want poison", bad.Value, err)
		}
	}
	if err := h(ctx, message("podium.registration.places.changed.v3", m)); !broker.IsPoison(err) {
		t.Fatalf("an unknown version: %v, want poison", err)
	}
}

func TestChangesHandler(t *testing.T) {
	inv := &invalidator{}
	h := on(domain.EventsTopic, events.ChangesHandler(inv))
	ctx := t.Context()
	if err := h(ctx, message(domain.EventChangedType, domain.EventChanged{EventID: "evt_1", OrganizerID: "org_1", Version: 2})); err != nil {
		t.Fatal(err)
	}
	if err := h(ctx, message("podium.catalog.other.v1", map[string]string{})); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []broker.Message{
		message(domain.EventChangedType, map[string]string{"eventId": "evt_1"}),
		{Value: []byte("{"), Headers: map[string]string{broker.HeaderType: domain.EventChangedType}},
		message("podium.catalog.event.changed.v3", domain.EventChanged{EventID: "evt_1", OrganizerID: "org_1"}),
	} {
		if err := h(ctx, bad); !broker.IsPoison(err) {
			t.Fatalf("message %s %s: %v, want poison", bad.Headers[broker.HeaderType], bad.Value, err)
		}
	}
	if len(inv.events) != 1 || inv.events[0] != "org_1/evt_1" {
		t.Fatalf("invalidations %v", inv.events)
	}
	if events.CacheGroup("pod-1") != "catalog-cache-pod-1" {
		t.Fatal("group name")
	}
}
