package api_test

import (
	"net/http"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/checkout/internal/checkouttest"
)

func summaryBody() map[string]any {
	return map[string]any{
		"categoryId": checkouttest.CatRX, "purchaserEmail": "ana@example.com",
		"selectedSupplementIds": []any{checkouttest.SupShirt, checkouttest.SupMeal},
		"supplementSelections":  []any{map[string]any{"supplementId": checkouttest.SupHoodie, "optionId": "opt_m"}},
		"promocode":             "EARLY10",
		"guestRegistrations":    []any{map[string]any{"categoryId": checkouttest.CatTeam, "selectedSupplementIds": []any{checkouttest.SupMeal}}},
	}
}

func TestSummaryPricesEveryRegistration(t *testing.T) {
	env := start(t, checkouttest.Options{})
	body := summaryBody()
	validRequest(t, "browserCheckoutSummary", body)
	r := env.Browser(t, "summary", body, checkouttest.KeyID)
	if r.Status != http.StatusCreated {
		t.Fatalf("summary: %d %s", r.Status, r.Raw)
	}
	conforms(t, "browserCheckoutSummary", r)
	// main: 5500 + 1500 + 800 (per athlete, 1) + 3000 = 10800, -10 % = 9720, fee 486
	// guest: 10000 + 2 × 800 (minimum team size) = 11600, -10 % = 10440, fee 522; booking 100
	b := r.Body
	if b["eventId"] != checkouttest.EventID || b["currency"] != "EUR" || b["subtotal"] != 22400.0 || b["discount"] != 2240.0 ||
		b["fees"] != 1108.0 || b["feesTotal"] != 1108.0 || b["total"] != 21268.0 {
		t.Fatalf("totals %s", r.Raw)
	}
	regs := b["registrations"].([]any)
	main, guest := regs[0].(map[string]any), regs[1].(map[string]any)
	if main["subtotal"] != 10800.0 || main["discount"] != 1080.0 || main["guestIndex"] != nil || len(main["lineItems"].([]any)) != 4 {
		t.Fatalf("main registration %v", main)
	}
	meal := guest["lineItems"].([]any)[1].(map[string]any)
	if guest["guestIndex"] != 0.0 || meal["quantity"] != 2.0 || meal["unitAmount"] != 800.0 || meal["amount"] != 1600.0 || meal["kind"] != "SUPPLEMENT" {
		t.Fatalf("guest registration %v", guest)
	}
	items := b["lineItems"].([]any)
	if items[0].(map[string]any)["kind"] != "REGISTRATION" || items[1].(map[string]any)["kind"] != "GUEST" || items[0].(map[string]any)["price"] != 5500.0 {
		t.Fatalf("contract line items %v", items)
	}
	fees := b["feeItems"].([]any)
	if len(fees) != 2 || fees[0].(map[string]any)["amount"] != 1008.0 || fees[1].(map[string]any)["amount"] != 100.0 {
		t.Fatalf("fees %v", fees)
	}
	if p := b["promocode"].(map[string]any); p["code"] != "EARLY10" || p["applied"] != true {
		t.Fatalf("promocode %v", p)
	}
	if env.Catalog.LastRequestID.Load() != r.Header.Get("X-Request-Id") {
		t.Fatal("the request id was not forwarded to the catalog")
	}
	// The body may name the event: the same answer from the event's own document.
	body["eventId"] = checkouttest.EventID
	if again := env.Browser(t, "summary", body, checkouttest.KeyID); again.Body["total"] != 21268.0 {
		t.Fatalf("with eventId: %s", again.Raw)
	}
}

func TestSummaryRefusals(t *testing.T) {
	env := start(t, checkouttest.Options{})
	hidden := checkouttest.Event()
	hidden["id"], hidden["status"] = "evt_draft", "DRAFT"
	for _, c := range hidden["categories"].([]any) {
		c.(map[string]any)["id"] = "d" + c.(map[string]any)["id"].(string)
	}
	env.Catalog.Put(hidden)
	foreign := checkouttest.Event()
	foreign["id"], foreign["organizerId"] = "evt_foreign", checkouttest.OtherOrgID
	foreign["categories"] = []any{map[string]any{"id": "cat_foreign", "name": "F", "teamSize": map[string]any{"min": 1, "max": 1}, "activePrice": 1, "published": true, "private": false}}
	env.Catalog.Put(foreign)

	for name, c := range map[string]struct {
		change  func(b map[string]any)
		status  int
		message any
	}{
		"unknown category":     {func(b map[string]any) { b["categoryId"] = "cat_missing" }, 404, "category cat_missing not found"},
		"private category":     {func(b map[string]any) { b["categoryId"] = checkouttest.CatPrivate }, 404, "category cat_private not found"},
		"unpublished category": {func(b map[string]any) { b["categoryId"] = checkouttest.CatDraft }, 404, "category cat_draft not found"},
		"guest's hidden category": {func(b map[string]any) {
			b["guestRegistrations"] = []any{map[string]any{"categoryId": checkouttest.CatPrivate}}
		}, 404, "category cat_private not found"},
		"unpublished event":         {func(b map[string]any) { b["categoryId"] = "dcat_rx" }, 404, "category dcat_rx not found"},
		"wrong preview token":       {func(b map[string]any) { b["categoryId"], b["previewToken"] = "dcat_rx", "prv_wrong" }, 404, "category dcat_rx not found"},
		"another organizer's event": {func(b map[string]any) { b["categoryId"] = "cat_foreign" }, 404, "category cat_foreign not found"},
		"unknown event id":          {func(b map[string]any) { b["eventId"] = "evt_missing" }, 404, "event evt_missing not found"},
		"lower-case promocode":      {func(b map[string]any) { b["promocode"] = "early10" }, 422, []any{"promocode must be upper case: it has lower-case letters"}},
		// Unknown and unusable codes get one answer, whatever the reason.
		"unknown promocode": {func(b map[string]any) { b["promocode"] = "NOPE" }, 422, []any{`promocode "NOPE" is not valid for this purchase`}},
		"expired promocode": {func(b map[string]any) { b["promocode"] = "OVER" }, 422, []any{`promocode "OVER" is not valid for this purchase`}},
		"future promocode":  {func(b map[string]any) { b["promocode"] = "LATER" }, 422, []any{`promocode "LATER" is not valid for this purchase`}},
		"promocode for another category": {func(b map[string]any) { b["promocode"], b["guestRegistrations"] = "TEAMS", nil }, 422,
			[]any{`promocode "TEAMS" is not valid for this purchase`}},
		"unknown supplement": {func(b map[string]any) { b["selectedSupplementIds"] = []any{"sup_x"} }, 422,
			[]any{`selectedSupplementIds[0] "sup_x" is not a supplement of this event`}},
		"inactive option of a guest": {func(b map[string]any) {
			b["guestRegistrations"] = []any{map[string]any{"categoryId": checkouttest.CatRX, "supplementSelections": []any{map[string]any{"supplementId": checkouttest.SupHoodie, "optionId": "opt_xl"}}}}
		}, 422, []any{`guestRegistrations[0].supplementSelections[0].optionId "opt_xl" (XL) is no longer available`}},
		"eleven guests": {func(b map[string]any) {
			var g []any
			for range 11 {
				g = append(g, map[string]any{"categoryId": checkouttest.CatRX})
			}
			b["guestRegistrations"] = g
		}, 422, []any{"guestRegistrations must have at most 10 items"}},
	} {
		t.Run(name, func(t *testing.T) {
			b := summaryBody()
			c.change(b)
			r := env.Browser(t, "summary", b, checkouttest.KeyID)
			wantError(t, r, c.status, c.message)
			conforms(t, "browserCheckoutSummary", r)
		})
	}
	// The preview token opens an unpublished event, not its hidden categories.
	b := summaryBody()
	b["categoryId"], b["previewToken"], b["guestRegistrations"], b["promocode"] = "dcat_rx", checkouttest.PreviewToken, nil, nil
	b["selectedSupplementIds"], b["supplementSelections"] = nil, nil
	if r := env.Browser(t, "summary", b, checkouttest.KeyID); r.Status != http.StatusCreated || r.Body["total"] != 5875.0 {
		t.Fatalf("preview: %d %s", r.Status, r.Raw)
	}
	b["categoryId"] = "dcat_private"
	wantError(t, env.Browser(t, "summary", b, checkouttest.KeyID), 404, "category dcat_private not found")
}

func TestSummaryNeedsABrowserIdentity(t *testing.T) {
	env := start(t, checkouttest.Options{})
	r := env.Do(t, http.MethodPost, "/external/v1/browser/checkout/registration/summary", summaryBody(), nil)
	wantError(t, r, 401, "this service is reached through the gateway only")
}

func TestSummaryWhenTheCatalogIsDown(t *testing.T) {
	env := checkouttest.Start(t, checkouttest.Options{})
	env.Catalog.PutBroken(map[string]any{"id": "evt_broken", "organizerId": checkouttest.OrgID, "startDate": "not a date", "categories": []any{}})
	b := summaryBody()
	b["eventId"] = "evt_broken"
	r := env.Browser(t, "summary", b, checkouttest.KeyID)
	wantError(t, r, 503, "the catalog service is unavailable; retry after the Retry-After seconds")
	if ra := r.Header.Get("Retry-After"); ra != "2" {
		t.Fatalf("Retry-After %q, want 2", ra)
	}
}

// TestPrincipalsDoNotLeakBetweenRequests alternates two organizers' browser identities: each
// request is answered for its own organizer (the identity token is verified on a copy, since
// Fiber reuses the header buffer of a request for later ones).
func TestPrincipalsDoNotLeakBetweenRequests(t *testing.T) {
	env := start(t, checkouttest.Options{})
	other := env.Token(t, identity.Principal{OrganizerID: checkouttest.OtherOrgID, KeyID: "key_pub_9", KeyType: identity.Publishable, Origin: checkouttest.Site})
	for range 20 {
		if r := env.Browser(t, "summary", summaryBody(), checkouttest.KeyID); r.Status != http.StatusCreated {
			t.Fatalf("own organizer: %d %s", r.Status, r.Raw)
		}
		r := env.Do(t, http.MethodPost, "/external/v1/browser/checkout/registration/summary", summaryBody(), map[string]string{identity.Header: other})
		wantError(t, r, 404, "category cat_rx not found")
	}
}
