package e2e

import (
	"testing"
)

// TestCachedPublicReadsNeverOutliveAnUnpublish reads a published event until its answers are
// cached, checks the validators the gateway passes through (ETag, 304, Cache-Control), then
// unpublishes it with a re-import: the very next reads through the gateway are 404.
func TestCachedPublicReadsNeverOutliveAnUnpublish(t *testing.T) {
	tn := newTenant(t)
	doc := eventDoc("cache-unpublish", "PUBLISHED", false)
	ev := tn.importEvent(t, doc)
	paths := map[string]string{
		"/events/" + ev.ID:                    "public, max-age=5, stale-while-revalidate=30",
		"/events/" + ev.ID + "/pricing-cards": "public, max-age=1",
	}
	for path, cacheControl := range paths {
		first := send(t, tn.browser("GET", path, nil))
		second := send(t, tn.browser("GET", path, nil))
		etag := first.header.Get("ETag")
		if first.status != 200 || etag == "" || second.header.Get("ETag") != etag || string(second.body) != string(first.body) {
			t.Fatalf("%s: %d, ETag %q then %q", path, first.status, etag, second.header.Get("ETag"))
		}
		if got := first.header.Get("Cache-Control"); got != cacheControl {
			t.Fatalf("%s: Cache-Control %q, want %q", path, got, cacheControl)
		}
		r := tn.browser("GET", path, nil)
		r.headers["If-None-Match"] = etag
		if res := send(t, r); res.status != 304 || len(res.body) != 0 {
			t.Fatalf("%s with If-None-Match: %d %q", path, res.status, res.body)
		}
	}
	var page eventPage
	decodeOK(t, send(t, tn.browser("POST", "/events/search", map[string]any{"search": "cache-unpublish"})), 201, "browserSearchEvents", &page)
	if page.Total != 1 {
		t.Fatalf("search before the unpublish: %+v", page)
	}

	for _, change := range []func(){
		func() { doc["status"] = "DRAFT" },
		func() { doc["status"], doc["private"] = "PUBLISHED", true },
	} {
		change()
		tn.importEvent(t, doc)
		for path := range paths {
			wantError(t, send(t, tn.browser("GET", path, nil)), 404, "event "+ev.ID+" not found")
		}
		decodeOK(t, send(t, tn.browser("POST", "/events/search", map[string]any{"search": "cache-unpublish"})), 201, "browserSearchEvents", &page)
		if page.Total != 0 {
			t.Fatalf("search after the change still lists the event: %+v", page)
		}
		doc["status"], doc["private"] = "PUBLISHED", false
		tn.importEvent(t, doc)
		if res := send(t, tn.browser("GET", "/events/"+ev.ID, nil)); res.status != 200 {
			t.Fatalf("republished event: %d %s", res.status, res.body)
		}
	}
}
