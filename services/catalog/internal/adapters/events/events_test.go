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

// repo records the places it is asked to apply and applies versions above the last one.
type repo struct {
	app.Repository
	applied []domain.PlacesChanged
	last    int64
}

func (r *repo) ApplyPlaces(_ context.Context, m domain.PlacesChanged, _ time.Time) (bool, error) {
	if m.Version <= r.last {
		return false, nil
	}
	r.last = m.Version
	r.applied = append(r.applied, m)
	return true, nil
}

type invalidator struct{ events, places []string }

func (i *invalidator) EventChanged(org, id string) { i.events = append(i.events, org+"/"+id) }
func (i *invalidator) PlacesChanged(id string)     { i.places = append(i.places, id) }

func message(typ string, v any) broker.Message {
	b, _ := json.Marshal(v)
	return broker.Message{Value: b, Headers: map[string]string{broker.HeaderType: typ}}
}

func TestPlacesHandler(t *testing.T) {
	r, inv := &repo{}, &invalidator{}
	h := events.PlacesHandler(app.New(r, time.Now, inv), testkit.Discard())
	ctx := t.Context()
	m := domain.PlacesChanged{EventID: "evt_1", CategoryID: "cat_1", Confirmed: 3, Held: 1, Version: 2}
	for _, msg := range []broker.Message{
		message(domain.PlacesChangedType, m),
		message(domain.PlacesChangedType, m), // a redelivery: applied once, no second invalidation
		message("podium.registration.something.else.v1", m),
	} {
		if err := h(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	untyped := message("", domain.PlacesChanged{EventID: "evt_1", CategoryID: "cat_1", Version: 3})
	untyped.Headers = nil
	if err := h(ctx, untyped); err != nil {
		t.Fatal(err)
	}
	if len(r.applied) != 2 || len(inv.places) != 2 || inv.places[0] != "evt_1" {
		t.Fatalf("applied %v, invalidated %v", r.applied, inv.places)
	}
	for _, bad := range []broker.Message{
		{Value: []byte("not json"), Headers: map[string]string{broker.HeaderType: domain.PlacesChangedType}},
		message(domain.PlacesChangedType, domain.PlacesChanged{CategoryID: "cat_1", Version: 4}),
	} {
		if err := h(ctx, bad); !errors.Is(err, app.ErrInvalidPlaces) || !broker.IsPoison(err) {
			t.Fatalf("invalid message %s: %v, want poison", bad.Value, err)
		}
	}
	if err := h(ctx, message("podium.registration.places.changed.v2", m)); !broker.IsPoison(err) {
		t.Fatalf("an unknown version: %v, want poison", err)
	}
}

func TestChangesHandler(t *testing.T) {
	inv := &invalidator{}
	h := events.ChangesHandler(inv)
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
