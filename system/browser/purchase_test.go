package browser

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// TestAPurchaseFromTheWebsiteIsPaidAndConfirmed buys a place as a visitor does: the event list,
// the event's pricing cards, the registration form filled in (a signature drawn with the mouse
// on the canvas), the summary, the payment session, the hosted checkout stand-in's "Pay", and
// back on the site the receipt of the confirmed registration. The organizer API then reads
// the order as completed.
func TestAPurchaseFromTheWebsiteIsPaidAndConfirmed(t *testing.T) {
	tab, site := browseSite(t)
	ev := demo.Events["summer-throwdown"]
	category := ev.Category("rx-men")
	buyer := "buyer-" + strings.ToLower(rand.Text()[:10]) + "@example.com"

	do(t, tab,
		chromedp.Navigate(site.URL+"/#/"),
		chromedp.Click(chromedp.CSS(`a[href="#/events/`+ev.ID+`"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`.pricing-card[data-category="`+category+`"] .price`)),
		screenshot("event.png"),
		chromedp.Click(chromedp.CSS(`.pricing-card[data-category="`+category+`"] a.button`), chromedp.NodeVisible),

		fillRXMen(ev, marc, buyer),

		chromedp.Click(chromedp.CSS(`#review`)),
		chromedp.Click(chromedp.CSS(`#pay`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#stripe-pay`)),
	)
	standInPage := read(t, tab, chromedp.Text(chromedp.CSS(`body`)))
	for _, want := range []string{"Summer Throwdown", "Receipt to " + buyer} {
		if !strings.Contains(standInPage, want) {
			t.Fatalf("the hosted checkout page does not show %q:\n%s", want, standInPage)
		}
	}
	do(t, tab, chromedp.Click(chromedp.CSS(`#stripe-pay`)), chromedp.WaitVisible(chromedp.CSS(`#receipt-count`)), screenshot("confirmation.png"))
	receipts := read(t, tab, chromedp.Text(chromedp.CSS(`#receipts`)))
	if !strings.Contains(receipts, "Your registration is confirmed.") || !strings.Contains(receipts, "1 receipt for "+buyer) {
		t.Fatalf("the confirmation page reads %q", receipts)
	}
	wantCompleted(t, ev.ID, buyer)
}

// wantCompleted waits until the organizer API reads the buyer's order in the event as
// completed, its ticket active.
func wantCompleted(t *testing.T, eventID, buyer string) {
	t.Helper()
	testkit.Eventually(t, 30*time.Second, func() string {
		res := testkit.Do(t, "POST", sys.GatewayURL()+"/external/v1/organizer/registrations/search",
			map[string]any{"eventId": eventID, "search": "Marc Soler", "limit": 100},
			map[string]string{"Authorization": "Bearer " + demo.SecretAll.Key})
		var page struct {
			Data []struct {
				Ticket struct{ Status string } `json:"ticket"`
				Order  struct {
					Status, PurchaserEmail string
				} `json:"order"`
			} `json:"data"`
		}
		if err := json.Unmarshal(res.Raw, &page); err != nil || res.Status != 201 {
			return fmt.Sprintf("registration search: %d %s", res.Status, res.Raw)
		}
		for _, row := range page.Data {
			if row.Order.PurchaserEmail == buyer {
				if row.Order.Status != "COMPLETED" || row.Ticket.Status != "ACTIVE" {
					return fmt.Sprintf("the order is %s and its ticket %s", row.Order.Status, row.Ticket.Status)
				}
				return ""
			}
		}
		return "no registration bought by " + buyer
	})
}

// optionID is the id of the option with key of the supplement with key.
func optionID(supplements []stack.Supplement, supplement, option string) string {
	for _, s := range supplements {
		if s.Key == supplement {
			for _, o := range s.Options {
				if o.Key == option {
					return o.ID
				}
			}
		}
	}
	return ""
}

// waiverID is the id of the waiver with key.
func waiverID(waivers []stack.Waiver, key string) string {
	for _, w := range waivers {
		if w.Key == key {
			return w.ID
		}
	}
	return ""
}
