package e2e

import (
	"fmt"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
)

// TestCachedPublicReadsNeverOutliveAnUnpublish reads a published event until its answers are
// kept by the catalog and the gateway, checks the validators (ETag, 304, Cache-Control), then
// unpublishes it with a re-import: reads through the gateway are 404 once the catalog's change
// message reached it (the edge keeps nothing longer than a second in any case).
func TestCachedPublicReadsNeverOutliveAnUnpublish(t *testing.T) {
	tn := newTenant(t)
	doc := catalogEvent("cache-unpublish", "PUBLISHED", false)
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
			res := awaitAnswer(t, func() response { return send(t, tn.browser("GET", path, nil)) }, func(r response) bool { return r.status == 404 })
			wantError(t, res, 404, "event "+ev.ID+" not found")
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

// awaitAnswer repeats call until done accepts its answer (see eventually) and returns it.
func awaitAnswer(t *testing.T, call func() response, done func(response) bool) response {
	t.Helper()
	var res response
	testkit.Eventually(t, eventTravel, func() string {
		if res = call(); done(res) {
			return ""
		}
		return fmt.Sprintf("still %d: %s", res.status, res.body)
	})
	return res
}

// TestTheGatewayKeepsPublicReadsForItsTenantOnly: a second read of a public answer comes from the
// gateway's edge cache without the owner's edge directive; another organizer's key gets its own
// answer (a 404) for the same path; a preview is never kept; a revoked key is refused although
// its organizer's answer is kept; a change to the organizer's events drops the kept answers.
func TestTheGatewayKeepsPublicReadsForItsTenantOnly(t *testing.T) {
	owner, other := newTenant(t), newTenant(t)
	doc := catalogEvent("edge-tenancy", "PUBLISHED", false)
	ev := owner.importEvent(t, doc)
	path := "/events/" + ev.ID + "/pricing-cards"

	first := send(t, owner.browser("GET", path, nil))
	if first.status != 200 || first.header.Get("X-Cache") != "MISS" {
		t.Fatalf("first read: %d, X-Cache %q", first.status, first.header.Get("X-Cache"))
	}
	// The event's creation reaches the gateway as a change too, which may drop what the first
	// read kept: repeated reads are served from the edge once it has.
	second := awaitAnswer(t, func() response { return send(t, owner.browser("GET", path, nil)) },
		func(r response) bool { return r.header.Get("X-Cache") == "HIT" })
	if second.status != 200 || string(second.body) != string(first.body) {
		t.Fatalf("a kept answer differs from the owner's: %d %s", second.status, second.body)
	}
	for _, res := range []response{first, second} {
		if res.header.Get("Surrogate-Control") != "" || res.header.Get("Access-Control-Allow-Origin") != site || res.header.Get("ETag") == "" {
			t.Fatalf("headers of an edge answer: %v", res.header)
		}
	}
	// A kept answer lives a second: on a busy machine it may lapse before the conditional read,
	// which the owner then answers (304, a miss) without keeping anything; a plain read before
	// each try keeps it again.
	awaitAnswer(t, func() response {
		send(t, owner.browser("GET", path, nil))
		conditional := owner.browser("GET", path, nil)
		conditional.headers["If-None-Match"] = second.header.Get("ETag")
		return send(t, conditional)
	}, func(r response) bool { return r.status == 304 && r.header.Get("X-Cache") == "HIT" })
	wantError(t, send(t, other.browser("GET", path, nil)), 404, "event "+ev.ID+" not found")
	for range 2 { // a preview (a query string) never even looks at the edge cache
		if res := send(t, owner.browser("GET", path+"?previewToken="+ev.PreviewToken, nil)); res.status != 200 || res.header.Get("X-Cache") != "" {
			t.Fatalf("a preview answer: %d, X-Cache %q", res.status, res.header.Get("X-Cache"))
		}
	}

	doc["name"] = "Edge tenancy, renamed"
	owner.importEvent(t, doc)
	awaitAnswer(t, func() response { return send(t, owner.browser("GET", "/events/"+ev.ID, nil)) },
		func(r response) bool { return r.status == 200 && r.header.Get("X-Cache") == "MISS" })

	if err := sys.RevokeKey(t.Context(), owner.publishable.ID); err != nil {
		t.Fatal(err)
	}
	awaitAnswer(t, func() response { return do(t, owner.browser("GET", path, nil)) }, func(r response) bool { return r.status == 401 })
}
