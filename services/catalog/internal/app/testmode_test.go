package app_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// TestTestPlacesAnnounceTestPricing: a tier switch caused by test registrations' counts is
// announced with livemode false and the test card; live counts, apart, announce their own
// switches with livemode true and the live card.
func TestTestPlacesAnnounceTestPricing(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	env.Clock.Set(t0)
	id := importEvent(t, env, catalogtest.Event("modes", "Modes", "PUBLISHED", false, `categories:
  - key: a
    name: A
    quota: 5
    basePrice: 1000
    tiers: [{key: first, price: 500, upToPlaces: 2}]`))
	e, err := env.Service.AdminEvent(t.Context(), org, "modes")
	if err != nil {
		t.Fatal(err)
	}
	a := e.Categories[0].ID
	seen := len(outbox(t, env, 0))
	apply := func(livemode *bool, confirmed int, version int64) []message {
		t.Helper()
		m := domain.PlacesChanged{EventID: id, Livemode: livemode, Categories: []domain.CategoryPlaces{{CategoryID: a, Confirmed: confirmed, Version: version}}}
		if err := env.Service.ApplyPlaces(t.Context(), m); err != nil {
			t.Fatal(err)
		}
		got := outbox(t, env, seen)
		seen += len(got)
		return got
	}
	card := func(headers map[string]string) map[string]any {
		r := env.Do(t, http.MethodGet, "/external/v1/organizer/events/"+id+"/pricing-cards", nil, headers)
		var v struct{ Cards []map[string]any }
		if err := json.Unmarshal(r.Raw, &v); err != nil || len(v.Cards) != 1 {
			t.Fatalf("cards: %d %s", r.Status, r.Raw)
		}
		v.Cards[0]["eventId"] = id
		return v.Cards[0]
	}
	want := func(got []message, livemode bool, headers map[string]string) {
		t.Helper()
		if len(got) != 1 || got[0].Type != domain.PricingChangedType || got[0].Data["livemode"] != livemode {
			t.Fatalf("messages %+v, want one pricing.changed with livemode %t", got, livemode)
		}
		if c := card(headers); !reflect.DeepEqual(got[0].Data["object"], c) {
			t.Fatalf("object %v, want the card %v", got[0].Data["object"], c)
		}
	}
	test, live := false, true
	want(apply(&test, 2, 1), false, env.SecretTest(t, org, "pricing:read"))
	if got := apply(&live, 1, 1); len(got) != 0 {
		t.Fatalf("live counts within the tier: %+v", got)
	}
	want(apply(nil, 2, 2), true, env.Secret(t, org, "pricing:read"))
	if c := card(env.SecretTest(t, org, "pricing:read")); c["registeredCount"] != 2.0 || c["activePrice"] != 1000.0 {
		t.Fatalf("test card %v", c)
	}
}
