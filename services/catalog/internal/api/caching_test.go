package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

func TestETagsAndCacheControl(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	id := env.Import(t, orgA, catalogtest.Demo(t, "summer-throwdown")).Body["id"].(string)
	cases := []struct {
		path         string
		headers      map[string]string
		cacheControl string
	}{
		{"/external/v1/browser/events/" + id, env.Publishable(t, orgA), "public, max-age=5, stale-while-revalidate=30"},
		{"/external/v1/browser/events/" + id + "/pricing-cards", env.Publishable(t, orgA), "public, max-age=1"},
		{"/external/v1/organizer/events/" + id, allScopes(t, env, orgA), "private, no-cache"},
		{"/external/v1/organizer/events/" + id + "/pricing-cards", allScopes(t, env, orgA), "private, no-cache"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			first := env.Do(t, http.MethodGet, c.path, nil, c.headers)
			etag := first.Header.Get("ETag")
			if first.Status != http.StatusOK || first.Header.Get("Cache-Control") != c.cacheControl || !strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, "W/") {
				t.Fatalf("first: %d Cache-Control %q ETag %q", first.Status, first.Header.Get("Cache-Control"), etag)
			}
			second := env.Do(t, http.MethodGet, c.path, nil, c.headers)
			if second.Header.Get("ETag") != etag || string(second.Raw) != string(first.Raw) {
				t.Fatal("the same answer has another ETag or body")
			}
			for _, match := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
				h := map[string]string{"If-None-Match": match}
				for k, v := range c.headers {
					h[k] = v
				}
				r := env.Do(t, http.MethodGet, c.path, nil, h)
				if r.Status != http.StatusNotModified || len(r.Raw) != 0 || r.Header.Get("ETag") != etag || r.Header.Get("Cache-Control") != c.cacheControl {
					t.Fatalf("If-None-Match %s: %d %q %v", match, r.Status, r.Raw, r.Header)
				}
			}
			h := map[string]string{"If-None-Match": `"stale"`}
			for k, v := range c.headers {
				h[k] = v
			}
			if r := env.Do(t, http.MethodGet, c.path, nil, h); r.Status != http.StatusOK || len(r.Raw) == 0 {
				t.Fatalf("a stale ETag got %d", r.Status)
			}
		})
	}
}

// TestUnpublishedEventIsNeverServedFromTheCache publishes an event, reads it through the
// browser routes (now cached), unpublishes it with a re-import, and reads again.
func TestUnpublishedEventIsNeverServedFromTheCache(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	published := catalogtest.Event("e", "Cached", "PUBLISHED", false, "categories: [{key: a, name: A, basePrice: 100}]")
	id := env.Import(t, orgA, published).Body["id"].(string)
	pub := env.Publishable(t, orgA)
	read := func() (int, int, float64) {
		d := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id, nil, pub)
		p := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id+"/pricing-cards", nil, pub)
		s := env.Do(t, http.MethodPost, "/external/v1/browser/events/search", nil, pub)
		return d.Status, p.Status, s.Body["total"].(float64)
	}
	for range 3 {
		if d, p, n := read(); d != 200 || p != 200 || n != 1 {
			t.Fatalf("published: detail %d pricing %d search %v", d, p, n)
		}
	}
	if env.Cache.Len() < 3 {
		t.Fatalf("%d cached answers, want the three reads cached", env.Cache.Len())
	}
	for _, change := range []string{
		strings.Replace(published, "status: PUBLISHED", "status: DRAFT", 1),
		strings.Replace(published, "private: false", "private: true", 1),
	} {
		env.Import(t, orgA, published)
		if d, _, _ := read(); d != 200 {
			t.Fatal("re-published event not shown")
		}
		env.Import(t, orgA, change)
		if d, p, n := read(); d != 404 || p != 404 || n != 0 {
			t.Fatalf("after hiding it: detail %d pricing %d search %v", d, p, n)
		}
	}
	// The same for a category: unpublishing it removes it from the cached pricing and detail.
	env.Import(t, orgA, published)
	read()
	env.Import(t, orgA, strings.Replace(published, "basePrice: 100}", "basePrice: 100, published: false}", 1))
	d := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id, nil, pub)
	p := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id+"/pricing-cards", nil, pub)
	if len(d.Body["categories"].([]any)) != 0 || len(p.Body["cards"].([]any)) != 0 {
		t.Fatalf("an unpublished category is still served: %s %s", d.Raw, p.Raw)
	}
}

// TestOtherInstancesDropTheirCacheOnChanges runs two instances on one database and broker:
// an import through the first reaches the second's cache through catalog.events.v1.
func TestOtherInstancesDropTheirCacheOnChanges(t *testing.T) {
	one := catalogtest.Start(t, catalogtest.Options{Kafka: true})
	two := catalogtest.Start(t, catalogtest.Options{Kafka: true, Pool: one.Pool, Brokers: one.Brokers})
	published := catalogtest.Event("e", "Shared", "PUBLISHED", false)
	id := one.Import(t, orgA, published).Body["id"].(string)
	path := "/external/v1/browser/events/" + id
	testkit.Eventually(t, 20*time.Second, func() string {
		if two.ChangesSeen.Load() < 1 { // the creation's message, which drops nothing yet
			return "the second instance never received the creation"
		}
		return ""
	})
	if r := two.Do(t, http.MethodGet, path, nil, two.Publishable(t, orgA)); r.Status != http.StatusOK || two.Cache.Len() != 1 {
		t.Fatal("the second instance did not cache the detail")
	}
	one.Import(t, orgA, strings.Replace(published, "status: PUBLISHED", "status: CANCELLED", 1))
	testkit.Eventually(t, 20*time.Second, func() string {
		if two.Do(t, http.MethodGet, path, nil, two.Publishable(t, orgA)).Status != http.StatusNotFound {
			return "the second instance kept serving the unpublished event from its cache"
		}
		return ""
	})
}

// TestOnlyPublicAnswersMaySitAtTheEdge: the browser surface's searches, details and pricing
// cards let the gateway keep them for the edge TTL (Surrogate-Control); organizer answers,
// preview answers and refusals never; pricing cards not when a second at the edge would reach
// within 250 ms of a tier boundary, so the edge never serves a price past its switch.
func TestOnlyPublicAnswersMaySitAtTheEdge(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{PricingTTL: time.Hour})
	imported := env.Import(t, orgA, catalogtest.Event("edge", "Edge", "PUBLISHED", false, `categories:
  - key: rx
    name: RX
    basePrice: 8500
    tiers:
      - {key: early, name: Early bird, price: 6500, until: 2027-02-01}`))
	id, preview := imported.Body["id"].(string), imported.Body["previewToken"].(string)
	boundary := time.Date(2027, 1, 31, 23, 0, 0, 0, time.UTC) // 00:00 on 1 February in Madrid
	env.Clock.Set(boundary.Add(-time.Hour))
	pub, org := env.Publishable(t, orgA), allScopes(t, env, orgA)
	cases := []struct {
		method, path string
		headers      map[string]string
		shared       bool
	}{
		{http.MethodPost, "/external/v1/browser/events/search", pub, true},
		{http.MethodGet, "/external/v1/browser/events/" + id, pub, true},
		{http.MethodGet, "/external/v1/browser/events/" + id + "/pricing-cards", pub, true},
		{http.MethodGet, "/external/v1/browser/events/" + id + "?previewToken=" + preview, pub, false},
		{http.MethodGet, "/external/v1/browser/events/" + id + "/pricing-cards?previewToken=" + preview, pub, false},
		{http.MethodGet, "/external/v1/browser/events/evt_00000000000000000000", pub, false},
		{http.MethodPost, "/external/v1/organizer/events/search", org, false},
		{http.MethodGet, "/external/v1/organizer/events/" + id, org, false},
		{http.MethodGet, "/external/v1/organizer/events/" + id + "/pricing-cards", org, false},
	}
	for _, c := range cases {
		var body any
		if c.method == http.MethodPost {
			body = map[string]any{}
		}
		for range 2 { // computed, then from the catalog's cache
			r := env.Do(t, c.method, c.path, body, c.headers)
			if got, want := r.Header.Get("Surrogate-Control"), map[bool]string{true: "max-age=1"}[c.shared]; got != want {
				t.Fatalf("%s %s (%d): Surrogate-Control %q, want %q", c.method, c.path, r.Status, got, want)
			}
		}
	}
	env.Clock.Set(boundary.Add(-1200 * time.Millisecond)) // a second at the edge would reach within the margin
	r := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id+"/pricing-cards", nil, pub)
	if r.Status != http.StatusOK || r.Header.Get("Surrogate-Control") != "" {
		t.Fatalf("pricing cards 1.2 s before a tier switch may sit at the edge: %q", r.Header.Get("Surrogate-Control"))
	}
}
