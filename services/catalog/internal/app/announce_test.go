package app_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/app"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
	"github.com/podiumhq/podium/services/catalog/internal/importfile"
)

const org = "org_announce"

var t0 = time.Date(2027, 1, 20, 9, 0, 0, 0, time.UTC)

// message is a row of the outbox.
type message struct {
	Type string
	Key  string
	Data map[string]any
}

// outbox returns the messages enqueued after the first skip ones, in order.
func outbox(t *testing.T, env *catalogtest.Env, skip int) []message {
	t.Helper()
	rows, err := env.Pool.Query(t.Context(), `SELECT headers->>'ce_type', key, payload FROM outbox ORDER BY id OFFSET $1`, skip)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []message
	for rows.Next() {
		var m message
		var payload []byte
		if err := rows.Scan(&m.Type, &m.Key, &payload); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(payload, &m.Data); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// get returns the JSON the organizer API answers at path.
func get(t *testing.T, env *catalogtest.Env, path string) map[string]any {
	t.Helper()
	r := env.Do(t, http.MethodGet, path, nil, env.Secret(t, org, "events:read", "pricing:read"))
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
	}
	var v map[string]any
	if err := json.Unmarshal(r.Raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// organizerCard returns the organizer pricing card of a category, as the API answers it, with
// its event's id: what a pricing.changed message carries.
func organizerCard(t *testing.T, env *catalogtest.Env, eventID, categoryID string) map[string]any {
	t.Helper()
	for _, c := range get(t, env, "/external/v1/organizer/events/"+eventID+"/pricing-cards")["cards"].([]any) {
		if card := c.(map[string]any); card["categoryId"] == categoryID {
			card["eventId"] = eventID
			return card
		}
	}
	t.Fatalf("no card of %s", categoryID)
	return nil
}

func importEvent(t *testing.T, env *catalogtest.Env, file string) string {
	t.Helper()
	if _, err := env.Service.Import(t.Context(), org, catalogtest.ExternalIDOf(t, file), importfile.YAML, []byte(file)); err != nil {
		t.Fatal(err)
	}
	e, err := env.Service.AdminEvent(t.Context(), org, catalogtest.ExternalIDOf(t, file))
	if err != nil {
		t.Fatal(err)
	}
	return e.ID
}

func wantPricingChanged(t *testing.T, env *catalogtest.Env, got []message, eventID string, categoryIDs ...string) {
	t.Helper()
	if len(got) != len(categoryIDs) {
		t.Fatalf("%d messages %v, want pricing.changed of %v", len(got), got, categoryIDs)
	}
	for i, m := range got {
		if m.Type != domain.PricingChangedType || m.Key != eventID || m.Data["organizerId"] != org || m.Data["eventId"] != eventID ||
			m.Data["livemode"] != true || m.Data["occurredAt"] != env.Clock.Now().UTC().Format(time.RFC3339Nano) {
			t.Fatalf("message %d: %+v", i, m)
		}
		if want := organizerCard(t, env, eventID, categoryIDs[i]); !reflect.DeepEqual(m.Data["object"], want) {
			t.Fatalf("object %v, want the organizer card %v", m.Data["object"], want)
		}
	}
}

// TestAnImportAnnouncesTheEventAsTheOrganizerAPIShowsIt: every import that changes an event
// (created, changed, cancelled) enqueues event.changed with the organizer detail after the
// change; an identical import enqueues nothing.
func TestAnImportAnnouncesTheEventAsTheOrganizerAPIShowsIt(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	env.Clock.Set(t0)
	file := catalogtest.Demo(t, "summer-throwdown")
	id := importEvent(t, env, file)
	importEvent(t, env, file)
	env.Clock.Advance(time.Hour)
	id2 := importEvent(t, env, catalogtest.Event("summer-throwdown", "Summer Throwdown", "CANCELLED", false))
	got := outbox(t, env, 0)
	if id2 != id || len(got) != 2 {
		t.Fatalf("messages %+v, want one per change", got)
	}
	for i, m := range got {
		if m.Type != domain.EventChangedType || m.Key != id || m.Data["eventId"] != id || m.Data["organizerId"] != org ||
			m.Data["version"] != float64(i+1) || m.Data["livemode"] != true ||
			m.Data["occurredAt"] != t0.Add(time.Duration(i)*time.Hour).Format(time.RFC3339Nano) {
			t.Fatalf("message %d: %+v", i, m)
		}
	}
	if status := got[1].Data["object"].(map[string]any)["status"]; status != "CANCELLED" {
		t.Fatalf("the cancelled event's object has status %v", status)
	}
	if want := get(t, env, "/external/v1/organizer/events/"+id); !reflect.DeepEqual(got[1].Data["object"], want) {
		t.Fatalf("object %v\nwant the organizer detail %v", got[1].Data["object"], want)
	}
}

// TestPlacesThatSwitchATierOrASoldOutAreAnnounced: applying places enqueues pricing.changed
// for a category whose active tier switched or that became sold out or no longer sold out,
// with the organizer card after the change; other counts, and older versions, enqueue nothing.
func TestPlacesThatSwitchATierOrASoldOutAreAnnounced(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	env.Clock.Set(t0)
	id := importEvent(t, env, catalogtest.Event("places", "Places", "PUBLISHED", false, `categories:
  - key: a
    name: A
    quota: 3
    basePrice: 1000
    tiers: [{key: first, price: 500, upToPlaces: 2}]
  - {key: b, name: B, basePrice: 2000}`))
	e, err := env.Service.AdminEvent(t.Context(), org, "places")
	if err != nil {
		t.Fatal(err)
	}
	a, b := e.Categories[0].ID, e.Categories[1].ID
	seen := len(outbox(t, env, 0))
	apply := func(category string, confirmed, held int, version int64) []message {
		t.Helper()
		m := domain.PlacesChanged{EventID: id, Categories: []domain.CategoryPlaces{{CategoryID: category, Confirmed: confirmed, Held: held, Version: version}}}
		if err := env.Service.ApplyPlaces(t.Context(), m); err != nil {
			t.Fatal(err)
		}
		got := outbox(t, env, seen)
		seen += len(got)
		return got
	}
	if got := apply(a, 1, 0, 1); len(got) != 0 {
		t.Fatalf("a count within the tier: %+v", got)
	}
	if got := apply(b, 40, 2, 1); len(got) != 0 {
		t.Fatalf("places of a category without tiers or quota: %+v", got)
	}
	wantPricingChanged(t, env, apply(a, 1, 1, 2), id, a) // the tier's bound is reached: base price
	wantPricingChanged(t, env, apply(a, 2, 1, 3), id, a) // sold out
	if got := apply(a, 0, 0, 2); len(got) != 0 {
		t.Fatalf("an older version: %+v", got)
	}
	wantPricingChanged(t, env, apply(a, 2, 0, 4), id, a) // no longer sold out
	if got := apply("cat_of_no_event", 1, 0, 1); len(got) != 0 {
		t.Fatalf("places of an unknown category: %+v", got)
	}
}

// TestAnImportThatSwitchesATierAnnouncesIt: an import that changes which tier is active
// enqueues pricing.changed beside event.changed.
func TestAnImportThatSwitchesATierAnnouncesIt(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	env.Clock.Set(t0)
	file := func(until string) string {
		return catalogtest.Event("dates", "Dates", "PUBLISHED", false, `categories:
  - key: a
    name: A
    basePrice: 1000
    tiers: [{key: early, price: 500, until: `+until+`}]
  - {key: b, name: B, basePrice: 2000}`)
	}
	id := importEvent(t, env, file("2027-02-01"))
	importEvent(t, env, file("2027-01-15")) // the early tier ended before now
	got := outbox(t, env, 1)
	if len(got) != 2 || got[0].Type != domain.EventChangedType {
		t.Fatalf("messages %+v", got)
	}
	e, err := env.Service.AdminEvent(t.Context(), org, "dates")
	if err != nil {
		t.Fatal(err)
	}
	wantPricingChanged(t, env, got[1:], id, e.Categories[0].ID)
	if got[1].Data["object"].(map[string]any)["activePrice"] != float64(1000) {
		t.Fatalf("card %v", got[1].Data["object"])
	}
}

// TestAnEventTooLargeForAMessageIsAnnouncedWithoutItsObject: the relay could never publish a
// message over Kafka's bound, and would hold back every later one.
func TestAnEventTooLargeForAMessageIsAnnouncedWithoutItsObject(t *testing.T) {
	e := domain.Event{ID: "evt_large", OrganizerID: org, Version: 2, Timezone: "UTC", Currency: "EUR",
		Description: strings.Repeat("a", app.MaxEventObjectBytes)}
	m, err := app.EventChangedMessage(e, t0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 1024 || strings.Contains(string(b), `"object"`) {
		t.Fatalf("%d bytes: %.200s", len(b), b)
	}
	e.Description = "small"
	if m, _ = app.EventChangedMessage(e, t0); m.Data.(domain.EventChanged).Object == nil {
		t.Fatal("a small event without its object")
	}
}
