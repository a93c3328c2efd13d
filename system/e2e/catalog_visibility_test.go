package e2e

import (
	"fmt"
	"testing"
)

var eventStatuses = []string{"DRAFT", "PUBLISHED", "UNDER_REVIEW", "POSTPONED", "COMPLETED", "CANCELLED", "ARCHIVED"}

// TestBrowserSurfaceShowsOnlyPublishedPublicEvents imports an event for every status and
// private flag: the browser surface shows the published, non-private one and nothing else, in
// searches, details and pricing cards; the organizer surface shows all of them.
func TestBrowserSurfaceShowsOnlyPublishedPublicEvents(t *testing.T) {
	tn := newTenant(t)
	var visible string
	hidden := map[string]string{} // event id -> what it is
	for _, status := range eventStatuses {
		for _, private := range []bool{false, true} {
			ev := tn.importEvent(t, catalogEvent(fmt.Sprintf("vis-%s-%t", status, private), status, private))
			if status == "PUBLISHED" && !private {
				visible = ev.ID
			} else {
				hidden[ev.ID] = fmt.Sprintf("%s private=%t", status, private)
			}
		}
	}

	// The browser body has no status filter: one sent anyway is refused, not obeyed.
	wantError(t, send(t, tn.browser("POST", "/events/search", map[string]any{"status": "DRAFT"})), 400, "status is not allowed")
	for _, body := range []map[string]any{{}, {"search": "vis-"}, {"limit": 100}} {
		var page eventPage
		decodeOK(t, send(t, tn.browser("POST", "/events/search", body)), 201, "browserSearchEvents", &page)
		if page.Total != 1 || len(page.Data) != 1 || page.Data[0].ID != visible || page.Data[0].Status != "PUBLISHED" {
			t.Fatalf("browser search %v: %+v, want only %s", body, page, visible)
		}
	}
	for id, what := range hidden {
		for _, path := range []string{"/events/" + id, "/events/" + id + "/pricing-cards"} {
			res := send(t, tn.browser("GET", path, nil))
			wantError(t, res, 404, "event "+id+" not found")
			if res.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%s (%s): a refusal may be cached: Cache-Control %q", path, what, res.header.Get("Cache-Control"))
			}
		}
	}

	var detail struct {
		Categories []map[string]any `json:"categories"`
	}
	decodeOK(t, send(t, tn.browser("GET", "/events/"+visible, nil)), 200, "browserGetEvent", &detail)
	if len(detail.Categories) != 1 || detail.Categories[0]["name"] != "Open" {
		t.Fatalf("browser detail lists %v, want only the published, non-private category", detail.Categories)
	}
	for _, field := range []string{"private", "published"} {
		if _, ok := detail.Categories[0][field]; ok {
			t.Fatalf("browser category carries the organizer-only field %q", field)
		}
	}
	var cards pricingCards
	decodeOK(t, send(t, tn.browser("GET", "/events/"+visible+"/pricing-cards", nil)), 200, "browserGetPricingCards", &cards)
	if len(cards.Cards) != 1 {
		t.Fatalf("browser pricing cards %+v, want one for the public category", cards)
	}

	var all eventPage
	decodeOK(t, send(t, tn.organizer("POST", "/events/search", map[string]any{"limit": 100})), 201, "organizerSearchEvents", &all)
	if all.Total != 14 || len(all.ids()) != 14 {
		t.Fatalf("organizer search found %d events, want every one of the 14", all.Total)
	}
	for _, status := range eventStatuses {
		var page eventPage
		decodeOK(t, send(t, tn.organizer("POST", "/events/search", map[string]any{"status": status})), 201, "organizerSearchEvents", &page)
		if page.Total != 2 || page.Data[0].Status != status || page.Data[1].Status != status {
			t.Fatalf("organizer search with status %s: %+v", status, page)
		}
	}
	for id := range hidden {
		var full struct {
			Categories []any `json:"categories"`
		}
		decodeOK(t, send(t, tn.organizer("GET", "/events/"+id, nil)), 200, "organizerGetEvent", &full)
		if len(full.Categories) != 3 {
			t.Fatalf("organizer detail of %s lists %d categories, want all 3", id, len(full.Categories))
		}
		var cards pricingCards
		decodeOK(t, send(t, tn.organizer("GET", "/events/"+id+"/pricing-cards", nil)), 200, "organizerGetPricingCards", &cards)
		if len(cards.Cards) != 3 {
			t.Fatalf("organizer pricing cards of %s: %d, want all 3", id, len(cards.Cards))
		}
	}
}

// TestPreviewTokenOpensAnUnpublishedEventOnTheBrowserSurface: the event's own token shows it
// (still the public subset, never cached); any other token is a 404 like an unknown event.
func TestPreviewTokenOpensAnUnpublishedEventOnTheBrowserSurface(t *testing.T) {
	tn := newTenant(t)
	draft := tn.importEvent(t, catalogEvent("preview-draft", "DRAFT", true))
	public := tn.importEvent(t, catalogEvent("preview-public", "PUBLISHED", false))

	for _, path := range []string{"/events/" + draft.ID, "/events/" + draft.ID + "/pricing-cards"} {
		res := send(t, tn.browser("GET", path+"?previewToken="+draft.PreviewToken, nil))
		if res.status != 200 || res.header.Get("Cache-Control") != "private, no-store" || res.header.Get("ETag") != "" {
			t.Fatalf("%s with its preview token: %d, Cache-Control %q, ETag %q: %s", path, res.status,
				res.header.Get("Cache-Control"), res.header.Get("ETag"), res.body)
		}
		wantError(t, send(t, tn.browser("GET", path+"?previewToken="+public.PreviewToken, nil)), 404, "event "+draft.ID+" not found")
	}
	var detail struct {
		Status     string `json:"status"`
		Categories []any  `json:"categories"`
	}
	decodeOK(t, send(t, tn.browser("GET", "/events/"+draft.ID+"?previewToken="+draft.PreviewToken, nil)), 200, "browserGetEvent", &detail)
	if detail.Status != "DRAFT" || len(detail.Categories) != 1 {
		t.Fatalf("preview shows status %s with %d categories, want DRAFT with the public one only", detail.Status, len(detail.Categories))
	}
	// A token is no oracle: a wrong one on a public event answers 404 too.
	wantError(t, send(t, tn.browser("GET", "/events/"+public.ID+"?previewToken="+draft.PreviewToken, nil)), 404, "not found")
	var page eventPage
	decodeOK(t, send(t, tn.browser("POST", "/events/search", map[string]any{"search": "preview"})), 201, "browserSearchEvents", &page)
	if page.Total != 1 || page.Data[0].ID != public.ID {
		t.Fatalf("browser search shows %+v, want the public event only", page)
	}
}

// TestAnotherOrganizersEventIsNotFound: every catalog read with another organizer's event id
// answers exactly as for an id that does not exist, on both surfaces, and searches never list it.
func TestAnotherOrganizersEventIsNotFound(t *testing.T) {
	owner, other := newTenant(t), newTenant(t)
	ev := owner.importEvent(t, catalogEvent("tenancy", "PUBLISHED", false))
	other.importEvent(t, catalogEvent("tenancy", "PUBLISHED", false)) // same external id, its own event

	const unknown = "evt_00000000000000000000"
	for _, sf := range other.surfaces() {
		call := sf.call
		for _, suffix := range []string{"", "/pricing-cards"} {
			theirs := send(t, call("GET", "/events/"+ev.ID+suffix, nil))
			wantError(t, theirs, 404, "event "+ev.ID+" not found")
			wantError(t, send(t, call("GET", "/events/"+unknown+suffix, nil)), 404, "event "+unknown+" not found")
		}
		var page eventPage
		decodeOK(t, send(t, call("POST", "/events/search", map[string]any{"search": "tenancy"})), 201, sf.op("SearchEvents"), &page)
		if page.Total != 1 || page.ids()[ev.ID] {
			t.Fatalf("another organizer's search lists %+v", page)
		}
	}
}
