package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestASoldOutCategoryOffersTheWaitlist: on a category whose one place is taken, the event
// page shows "Join the waitlist" instead of Register; a visitor joins and reads their place in
// line, which the organizer's list shows.
func TestASoldOutCategoryOffersTheWaitlist(t *testing.T) {
	tab, site := browseSite(t)
	ev, err := sys.ImportEventDoc(t.Context(), demo.OrganizerID, map[string]any{
		"externalId": fmt.Sprintf("waitlist-%d", time.Now().UnixNano()), "name": "Waitlist Throwdown", "status": "PUBLISHED",
		"startDate": "2027-06-12", "endDate": "2027-06-13", "timezone": "Europe/Madrid", "currency": "EUR",
		"categories": []any{map[string]any{"key": "solo", "name": "Solo", "basePrice": 5000, "quota": 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	category := ev.Category("solo")
	organizer := map[string]string{"Authorization": "Bearer " + demo.SecretAll.Key}
	res := testkit.Do(t, "POST", sys.GatewayURL()+"/external/v1/organizer/registrations", map[string]any{
		"eventId": ev.ID, "categoryId": category, "teamName": "First In",
		"athletes": []any{map[string]any{"fullname": "First In", "idNumber": "X1", "email": "first.in@example.com",
			"phone": "+34600111222", "gender": "FEMALE", "birthDate": "1990-01-01"}},
	}, organizer)
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Raw)
	}
	testkit.Eventually(t, 30*time.Second, func() string { // the catalog's cards follow the ledger
		r := testkit.Do(t, "GET", sys.GatewayURL()+"/external/v1/organizer/events/"+ev.ID+"/pricing-cards", nil, organizer)
		var p struct {
			Cards []struct{ AvailableCount *int }
		}
		if json.Unmarshal(r.Raw, &p) != nil || len(p.Cards) != 1 || p.Cards[0].AvailableCount == nil || *p.Cards[0].AvailableCount != 0 {
			return string(r.Raw)
		}
		return ""
	})

	card := `.pricing-card[data-category="` + category + `"]`
	do(t, tab,
		chromedp.Navigate(site.URL+"/#/events/"+ev.ID),
		chromedp.WaitVisible(chromedp.CSS(card+` form.waitlist`)),
		chromedp.SendKeys(chromedp.CSS(card+` input[name="email"]`), "late.comer@example.com"),
		chromedp.SendKeys(chromedp.CSS(card+` input[name="name"]`), "Late Comer"),
		chromedp.Click(chromedp.CSS(card+` form.waitlist button`)),
		chromedp.WaitVisible(chromedp.CSS(card+` .joined`)),
		screenshot("waitlist.png"),
	)
	if got := read(t, tab, chromedp.Text(chromedp.CSS(card+` .joined`))); !strings.Contains(got, "number 1 on the waitlist") {
		t.Fatalf("after joining the page reads %q", got)
	}
	list := testkit.Do(t, "GET", sys.GatewayURL()+"/external/v1/organizer/categories/"+category+"/waitlist", nil, organizer)
	if list.Status != 200 || !strings.Contains(string(list.Raw), "late.comer@example.com") {
		t.Fatalf("the organizer's waitlist: %d %s", list.Status, list.Raw)
	}
}
