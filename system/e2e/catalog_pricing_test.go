package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/system/stack"
)

// fixedZone names the IANA zone of a whole-hour UTC offset (POSIX signs: Etc/GMT-14 is UTC+14).
func fixedZone(hours int) string {
	switch {
	case hours > 0:
		return fmt.Sprintf("Etc/GMT-%d", hours)
	case hours < 0:
		return fmt.Sprintf("Etc/GMT+%d", -hours)
	}
	return "Etc/GMT"
}

// zoneExternalID names an event after its zone in the characters external ids allow
// ("Etc/GMT+2" -> "tier-gmt-west-2", "Etc/GMT-3" -> "tier-gmt-east-3").
func zoneExternalID(zone string) string {
	return "tier-" + strings.NewReplacer("Etc/GMT+", "gmt-west-", "Etc/GMT-", "gmt-east-", "Etc/GMT", "gmt").Replace(zone)
}

// zonesAroundMidnight returns two fixed-offset zones and a date: in the first, 00:00 of the
// date passed 30 to 90 minutes ago; in the second, two hours further west, it is 30 to 90
// minutes away. IANA's fixed zones span UTC-12 to UTC+14, so such a pair exists at any instant.
func zonesAroundMidnight(now time.Time) (past, ahead string, date string) {
	for east := 14; east >= -10; east-- {
		local := now.In(time.FixedZone("", east*3600))
		since := local.Sub(time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, local.Location()))
		if since >= 30*time.Minute && since < 90*time.Minute {
			return fixedZone(east), fixedZone(east - 2), local.Format(time.DateOnly)
		}
	}
	panic("no whole-hour offset is 30 to 90 minutes past midnight")
}

// TestDateTierSwitchesAtMidnightInTheEventsTimeZone imports two events whose early tier ends on
// the same date, in two zones: where that date's midnight has passed the base price is active,
// where it has not the tier still is, and the tier's end is that local midnight in UTC.
func TestDateTierSwitchesAtMidnightInTheEventsTimeZone(t *testing.T) {
	tn := newTenant(t)
	pastZone, aheadZone, until := zonesAroundMidnight(time.Now())
	tiered := func(externalID, zone string) map[string]any {
		doc := catalogEvent(externalID, "PUBLISHED", false)
		doc["timezone"] = zone
		doc["categories"] = []any{map[string]any{
			"key": "open", "name": "Open", "basePrice": 5000,
			"tiers": []any{map[string]any{"key": "early", "name": "Early", "price": 3000, "until": until}},
		}}
		return doc
	}
	for _, tc := range []struct {
		zone   string
		active bool
		price  int
	}{{pastZone, false, 5000}, {aheadZone, true, 3000}} {
		ev := tn.importEvent(t, tiered(zoneExternalID(tc.zone), tc.zone))
		loc, err := time.LoadLocation(tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		end, _ := time.ParseInLocation(time.DateOnly, until, loc)
		for _, sf := range tn.surfaces() {
			var cards pricingCards
			decodeOK(t, send(t, sf.call("GET", "/events/"+ev.ID+"/pricing-cards", nil)), 200, sf.op("GetPricingCards"), &cards)
			c := cards.Cards[0]
			if c.ActivePrice != tc.price || c.Tiers[0].Active != tc.active || c.Tiers[0].EndsAt != end.UTC().Format(time.RFC3339) {
				t.Fatalf("%s in %s (tier until %s): active price %d, tier %+v; want %d, active %t, ending %s",
					sf.name, tc.zone, until, c.ActivePrice, c.Tiers[0], tc.price, tc.active, end.UTC().Format(time.RFC3339))
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
