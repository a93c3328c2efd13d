package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// publishPlaces writes the counts of m's category as registration publishes them, in a
// podium.registration.places.changed.v2 message keyed by the event, or as the v1 message
// registration published before (keyed by the category) when v1 is set.
func publishPlaces(t *testing.T, env *catalogtest.Env, m domain.PlacesChangedV1, v1 bool) {
	t.Helper()
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	typ, key, data := domain.PlacesChangedType, m.EventID, any(m.Current())
	if v1 {
		typ, key, data = domain.PlacesChangedV1Type, m.CategoryID, m
	}
	v, _ := json.Marshal(data)
	err := w.Publish(t.Context(), broker.Message{
		Topic: domain.PlacesTopic, Key: key, Value: v,
		Headers: map[string]string{broker.HeaderType: typ, broker.HeaderID: fmt.Sprintf("msg_%s_%d", m.CategoryID, m.Version)},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// card reads the browser pricing card of a category until cond holds or 20 s pass.
func card(t *testing.T, env *catalogtest.Env, eventID string, cond func(map[string]any) bool) map[string]any {
	t.Helper()
	var c map[string]any
	testkit.Eventually(t, 20*time.Second, func() string {
		r := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+eventID+"/pricing-cards", nil, env.Publishable(t, orgA))
		checkContract(t, "browserGetPricingCards", r)
		if c = r.Body["cards"].([]any)[0].(map[string]any); !cond(c) {
			return fmt.Sprintf("card never reached the expected state: %v", c)
		}
		return ""
	})
	return c
}

// TestCountTierSwitchesWhenTheNthPlaceIsTaken feeds registration.places.v1 through the broker:
// the first 10 places are cheaper, held places count, duplicates and stale versions do not,
// and a v1 message left from before v2 is applied too.
func TestCountTierSwitchesWhenTheNthPlaceIsTaken(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{Kafka: true})
	created := env.Import(t, orgA, catalogtest.Event("teams", "Teams", "PUBLISHED", false, `categories:
  - key: teams
    name: Teams
    quota: 30
    basePrice: 18000
    tiers: [{key: first-ten, name: First 10, price: 15000, upToPlaces: 10}]`))
	id := created.Body["id"].(string)
	cat := created.Body["categories"].([]any)[0].(map[string]any)["id"].(string)
	price := func(c map[string]any) float64 { return c["activePrice"].(float64) }

	publishPlaces(t, env, domain.PlacesChangedV1{EventID: id, CategoryID: cat, Confirmed: 8, Held: 1, Version: 3}, false)
	c := card(t, env, id, func(c map[string]any) bool { return c["registeredCount"] == 8.0 })
	if price(c) != 15000 || c["heldCount"] != 1.0 || c["availableCount"] != 21.0 || c["tiers"].([]any)[0].(map[string]any)["active"] != true {
		t.Fatalf("9 places taken: %v", c)
	}
	publishPlaces(t, env, domain.PlacesChangedV1{EventID: id, CategoryID: cat, Confirmed: 8, Held: 2, Version: 4}, true)
	c = card(t, env, id, func(c map[string]any) bool { return c["heldCount"] == 2.0 })
	if price(c) != 18000 || c["tiers"].([]any)[0].(map[string]any)["active"] != false {
		t.Fatalf("the 10th place taken (held): %v", c)
	}
	publishPlaces(t, env, domain.PlacesChangedV1{EventID: id, CategoryID: cat, Confirmed: 1, Held: 0, Version: 2}, false) // stale
	publishPlaces(t, env, domain.PlacesChangedV1{EventID: id, CategoryID: cat, Confirmed: 9, Held: 0, Version: 5}, false) // a hold lapsed
	c = card(t, env, id, func(c map[string]any) bool { return c["registeredCount"] == 9.0 })
	if price(c) != 15000 || c["heldCount"] != 0.0 {
		t.Fatalf("back to 9 places: %v", c)
	}
	internal := env.Do(t, http.MethodGet, "/internal/events/"+id, nil, env.Checkout(t, orgA))
	ic := internal.Body["categories"].([]any)[0].(map[string]any)
	if ic["confirmed"] != 9.0 || ic["held"] != 0.0 || ic["activePrice"] != 15000.0 {
		t.Fatalf("internal API: %v", ic)
	}
}

// TestDateTierSwitchesAtMidnightInTheEventsZone moves the service's clock across 00:00 in
// Europe/Madrid (23:00 UTC in winter) and checks the card, served from the cache, switches at
// that instant and not at midnight UTC.
func TestDateTierSwitchesAtMidnightInTheEventsZone(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{PricingTTL: time.Hour})
	id := env.Import(t, orgA, catalogtest.Event("rx", "RX", "PUBLISHED", false, `categories:
  - key: rx
    name: RX
    basePrice: 8500
    tiers:
      - {key: early, name: Early bird, price: 6500, until: 2027-02-01}
      - {key: regular, name: Regular, price: 7500, from: 2027-02-01, until: 2027-05-01}`)).Body["id"].(string)
	boundary := time.Date(2027, 1, 31, 23, 0, 0, 0, time.UTC) // 00:00 on 1 February in Madrid
	at := func(now time.Time) map[string]any {
		env.Clock.Set(now)
		r := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id+"/pricing-cards", nil, env.Publishable(t, orgA))
		return r.Body["cards"].([]any)[0].(map[string]any)
	}
	c := at(boundary.Add(-time.Hour))
	tiers := c["tiers"].([]any)
	if c["activePrice"] != 6500.0 || tiers[0].(map[string]any)["endsAt"] != "2027-01-31T23:00:00Z" ||
		tiers[1].(map[string]any)["startsAt"] != "2027-01-31T23:00:00Z" || tiers[1].(map[string]any)["endsAt"] != "2027-04-30T22:00:00Z" {
		t.Fatalf("before the boundary: %v", c)
	}
	if c := at(boundary.Add(-time.Millisecond)); c["activePrice"] != 6500.0 {
		t.Fatalf("just before 00:00 local: %v", c["activePrice"])
	}
	// The cached card (pricing TTL of an hour here) expires at the boundary.
	if c := at(boundary); c["activePrice"] != 7500.0 || c["tiers"].([]any)[1].(map[string]any)["active"] != true {
		t.Fatalf("at 00:00 local: %v", c)
	}
	if c := at(time.Date(2027, 4, 30, 22, 0, 0, 0, time.UTC)); c["activePrice"] != 8500.0 {
		t.Fatalf("at 00:00 local on 1 May (summer time): %v", c["activePrice"])
	}
}

// TestDateTierSwitchesAtMidnightInEveryZone imports the same tier, ending on 1 February 2027,
// for events in zones whose midnight falls at different hours UTC (a half-hour offset, both
// ends of the offsets, the '+' of Etc/GMT+12 in an external id): in each, the tier is active a
// millisecond before that zone's midnight and over at it, whatever hour UTC that is.
func TestDateTierSwitchesAtMidnightInEveryZone(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{PricingTTL: time.Hour})
	for _, tc := range []struct{ zone, midnight string }{
		{"Pacific/Kiritimati", "2027-01-31T10:00:00Z"},
		{"Asia/Kolkata", "2027-01-31T18:30:00Z"},
		{"Europe/Madrid", "2027-01-31T23:00:00Z"},
		{"America/Los_Angeles", "2027-02-01T08:00:00Z"},
		{"Etc/GMT+12", "2027-02-01T12:00:00Z"},
	} {
		t.Run(tc.zone, func(t *testing.T) {
			midnight, err := time.Parse(time.RFC3339, tc.midnight)
			if err != nil {
				t.Fatal(err)
			}
			file := strings.Replace(catalogtest.Event(strings.NewReplacer("/", "-", "+", "plus").Replace(tc.zone), "Zoned", "PUBLISHED", false, `categories:
  - key: rx
    name: RX
    basePrice: 8500
    tiers:
      - {key: early, name: Early bird, price: 6500, until: 2027-02-01}`), "timezone: Europe/Madrid", "timezone: "+tc.zone, 1)
			id := env.Import(t, orgA, file).Body["id"].(string)
			for _, step := range []struct {
				at    time.Time
				price float64
			}{{midnight.Add(-time.Millisecond), 6500}, {midnight, 8500}} {
				env.Clock.Set(step.at)
				r := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id+"/pricing-cards", nil, env.Publishable(t, orgA))
				checkContract(t, "browserGetPricingCards", r)
				c := r.Body["cards"].([]any)[0].(map[string]any)
				tier := c["tiers"].([]any)[0].(map[string]any)
				if c["activePrice"] != step.price || tier["active"] != (step.price == 6500) || tier["endsAt"] != tc.midnight {
					t.Fatalf("at %s: active price %v, tier %v; want %v, ending %s", step.at.Format(time.RFC3339Nano), c["activePrice"], tier, step.price, tc.midnight)
				}
			}
		})
	}
}
