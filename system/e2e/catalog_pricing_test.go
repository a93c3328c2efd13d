package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/podiumhq/podium/system/stack"
)

// zoneExternalID names an event after its zone and a date in the characters external ids allow
// ("Etc/GMT+12", "2099-01-01" -> "tier-gmt-west-12-2099-01-01").
func zoneExternalID(zone, date string) string {
	return "tier-" + strings.NewReplacer("Etc/GMT+", "gmt-west-", "Etc/GMT-", "gmt-east-").Replace(zone) + "-" + date
}

// TestDateTierEndsAtMidnightInTheEventsTimeZone imports events whose early tier ends on the same
// date in the two zones furthest apart (UTC+14 and UTC-12), once on a date long past and once
// on one far ahead: the tier ends at that date's midnight in each event's zone (26 hours apart
// in UTC), and it is active, its price the card's, exactly when that end is ahead. The catalog
// runs on the wall clock, so the dates are chosen far from any instant the suite runs at: no
// hour of the day changes what it sees. The switch at the instant of local midnight is tested
// with a chosen clock by the catalog's TestDateTierSwitchesAtMidnightInTheEventsZone.
func TestDateTierEndsAtMidnightInTheEventsTimeZone(t *testing.T) {
	tn := newTenant(t)
	for _, tc := range []struct {
		zone, until, endsAt string
		active              bool
		price               int
	}{
		{"Etc/GMT-14", "2020-01-01", "2019-12-31T10:00:00Z", false, 5000},
		{"Etc/GMT+12", "2020-01-01", "2020-01-01T12:00:00Z", false, 5000},
		{"Etc/GMT-14", "2099-01-01", "2098-12-31T10:00:00Z", true, 3000},
		{"Etc/GMT+12", "2099-01-01", "2099-01-01T12:00:00Z", true, 3000},
	} {
		doc := catalogEvent(zoneExternalID(tc.zone, tc.until), "PUBLISHED", false)
		doc["timezone"] = tc.zone
		doc["categories"] = []any{map[string]any{
			"key": "open", "name": "Open", "basePrice": 5000,
			"tiers": []any{map[string]any{"key": "early", "name": "Early", "price": 3000, "until": tc.until}},
		}}
		ev := tn.importEvent(t, doc)
		for _, sf := range tn.surfaces() {
			var cards pricingCards
			decodeOK(t, send(t, sf.call("GET", "/events/"+ev.ID+"/pricing-cards", nil)), 200, sf.op("GetPricingCards"), &cards)
			c := cards.Cards[0]
			if c.ActivePrice != tc.price || c.Tiers[0].Active != tc.active || c.Tiers[0].EndsAt != tc.endsAt {
				t.Fatalf("%s in %s (tier until %s): active price %d, tier %+v; want %d, active %t, ending %s",
					sf.name, tc.zone, tc.until, c.ActivePrice, c.Tiers[0], tc.price, tc.active, tc.endsAt)
			}
		}
	}
}

// TestCountTierSwitchesWhenTheNthPlaceIsTaken registers teams through the organizer API: the
// tier for the first 3 places is active until the 3rd registration, and again once one is
// cancelled. Places reach the catalog over Kafka, so each step waits for the count.
func TestCountTierSwitchesWhenTheNthPlaceIsTaken(t *testing.T) {
	tn := newTenant(t)
	doc := catalogEvent("count-tier", "PUBLISHED", false)
	doc["categories"] = []any{map[string]any{
		"key": "open", "name": "Open", "basePrice": 2000, "quota": 5,
		"tiers": []any{map[string]any{"key": "first-three", "name": "First three", "price": 1000, "upToPlaces": 3}},
	}}
	ev := tn.importEvent(t, doc)
	category := ev.Category("open")

	var tickets []string
	for n := 1; n <= 3; n++ {
		tickets = append(tickets, tn.register(t, ev.ID, category, n))
		want := map[bool]int{true: 1000, false: 2000}[n < 3]
		tn.waitForCard(t, ev, "open", n, want)
	}
	res := send(t, tn.organizer("DELETE", "/registrations/"+tickets[0], nil))
	if res.status != 200 {
		t.Fatalf("delete: %d %s", res.status, res.body)
	}
	tn.waitForCard(t, ev, "open", 2, 1000)
}

// register creates a one-athlete registration through the organizer API and returns its ticket.
func (tn tenant) register(t *testing.T, eventID, categoryID string, n int) string {
	t.Helper()
	body := map[string]any{
		"eventId": eventID, "categoryId": categoryID, "teamName": fmt.Sprintf("Team %d", n),
		"athletes": []any{map[string]any{
			"fullname": fmt.Sprintf("Athlete %d", n), "idNumber": fmt.Sprintf("ID-%d", n),
			"email": fmt.Sprintf("athlete%d@example.com", n), "phone": "+34600000000",
			"gender": "FEMALE", "birthDate": "1990-05-17",
		}},
	}
	var created struct {
		Tickets []struct {
			TicketID string `json:"ticketId"`
		} `json:"tickets"`
	}
	decodeOK(t, send(t, tn.organizer("POST", "/registrations", body)), 201, "organizerCreateRegistration", &created)
	return created.Tickets[0].TicketID
}

// waitForCard waits until the category's card counts registered places on both surfaces (the
// public one may be a second behind, at the edge), then checks its active price.
func (tn tenant) waitForCard(t *testing.T, ev stack.Event, category string, registered, price int) {
	t.Helper()
	path := "/events/" + ev.ID + "/pricing-cards"
	for _, r := range []req{tn.organizer("GET", path, nil), tn.browser("GET", path, nil)} {
		c := waitForCard(t, r.headers, strings.TrimPrefix(r.url, gw("")), ev.Category(category),
			func(c card) bool { return c.RegisteredCount == registered })
		if c.ActivePrice != price {
			t.Fatalf("%s: with %d places taken the active price is %d, want %d", r.url, registered, c.ActivePrice, price)
		}
	}
}
