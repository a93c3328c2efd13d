package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
)

// TestATestKeyReadsItsOrganizersDrafts: a test key (publishable or secret) reads a draft
// event's detail, pricing cards and finds it by search; a live publishable key gets 404 and
// does not find it, even after a test key's read was cached; private events stay hidden from
// publishable keys and other organizers' drafts from everyone. Test answers are never
// shareable by a public cache.
func TestATestKeyReadsItsOrganizersDrafts(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	cats := "categories: [{key: a, name: A, basePrice: 100}]"
	draft := env.Import(t, orgA, catalogtest.Event("draft", "Draft", "DRAFT", false, cats)).Body["id"].(string)
	private := env.Import(t, orgA, catalogtest.Event("private", "Private", "DRAFT", true, cats)).Body["id"].(string)
	other := env.Import(t, orgB, catalogtest.Event("other", "Other", "DRAFT", false, cats)).Body["id"].(string)
	testPub, livePub := env.PublishableTest(t, orgA), env.Publishable(t, orgA)
	testSecret := env.SecretTest(t, orgA, "events:read", "pricing:read")

	for _, op := range browserOps(draft) {
		r := env.Do(t, op.method, op.path, nil, testPub)
		checkContract(t, op.id, r)
		if r.Status/100 != 2 || r.Header.Get("Cache-Control") != "private, no-store" || r.Header.Get("Surrogate-Control") != "" {
			t.Fatalf("%s with a test key: %d %v %s", op.id, r.Status, r.Header, r.Raw)
		}
		if op.id == "browserSearchEvents" && fmt.Sprint(ids(r.Body["data"])) != fmt.Sprint([]string{draft}) {
			t.Fatalf("a test key's search found %s, want the non-private draft only", r.Raw)
		}
	}
	for _, op := range organizerOps(draft) {
		r := env.Do(t, op.method, op.path, nil, testSecret)
		checkContract(t, op.id, r)
		if r.Status/100 != 2 || r.Header.Get("Cache-Control") != "private, no-store" {
			t.Fatalf("%s with a test secret key: %d %v %s", op.id, r.Status, r.Header, r.Raw)
		}
	}
	// A live key after the test key's reads were cached: still not found.
	for _, op := range browserOps(draft)[1:] {
		wantError(t, env.Do(t, op.method, op.path, nil, livePub), http.StatusNotFound, nil)
	}
	if r := env.Do(t, http.MethodPost, "/external/v1/browser/events/search", nil, livePub); r.Body["total"] != 0.0 {
		t.Fatalf("a live key's search: %s", r.Raw)
	}
	for _, id := range []string{private, other} {
		for _, op := range browserOps(id)[1:] {
			wantError(t, env.Do(t, op.method, op.path, nil, testPub), http.StatusNotFound, nil)
		}
	}
	wantError(t, env.Do(t, http.MethodGet, "/external/v1/organizer/events/"+other, nil, testSecret), http.StatusNotFound, nil)
}

// publishPlacesJSON writes a podium.registration.places.changed.v2 message with data as is.
func publishPlacesJSON(t *testing.T, env *catalogtest.Env, eventID string, data map[string]any) {
	t.Helper()
	w := broker.NewWriter(broker.Cluster{Brokers: env.Brokers})
	defer w.Close()
	data["eventId"], data["occurredAt"] = eventID, "2027-01-20T09:00:00Z"
	v, _ := json.Marshal(data)
	err := w.Publish(t.Context(), broker.Message{
		Topic: "registration.places.v1", Key: eventID, Value: v,
		Headers: map[string]string{broker.HeaderType: "podium.registration.places.changed.v2", broker.HeaderID: fmt.Sprintf("msg_%p", &data)},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTestPlacesAreCountedApart feeds registration.places.v1 through the broker: test counts
// (livemode false) move the test cards only (counts, count tier, sold out), live counts and
// messages without livemode (sent before test mode) the live cards only, each with its own
// versions. Cards are cached for an hour, so a card of one mode served for the other fails.
func TestTestPlacesAreCountedApart(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{Kafka: true, PricingTTL: time.Hour})
	created := env.Import(t, orgA, catalogtest.Event("teams", "Teams", "PUBLISHED", false, `categories:
  - key: teams
    name: Teams
    quota: 12
    basePrice: 18000
    tiers: [{key: first-ten, name: First 10, price: 15000, upToPlaces: 10}]`))
	id := created.Body["id"].(string)
	cat := created.Body["categories"].([]any)[0].(map[string]any)["id"].(string)
	places := func(confirmed, version int) []any {
		return []any{map[string]any{"categoryId": cat, "confirmed": confirmed, "held": 0, "version": version}}
	}
	type want struct {
		registered, price float64
		available         float64
	}
	read := func(headers map[string]string, path string) map[string]any {
		r := env.Do(t, http.MethodGet, path, nil, headers)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", path, r.Status, r.Raw)
		}
		return r.Body["cards"].([]any)[0].(map[string]any)
	}
	wait := func(mode string, live, test want) {
		t.Helper()
		browser, organizer := "/external/v1/browser/events/"+id+"/pricing-cards", "/external/v1/organizer/events/"+id+"/pricing-cards"
		testkit.Eventually(t, 20*time.Second, func() string {
			for _, c := range []struct {
				name    string
				headers map[string]string
				path    string
				want    want
			}{
				{"live browser", env.Publishable(t, orgA), browser, live},
				{"live organizer", allScopes(t, env, orgA), organizer, live},
				{"test browser", env.PublishableTest(t, orgA), browser, test},
				{"test organizer", env.SecretTest(t, orgA, "pricing:read"), organizer, test},
			} {
				card := read(c.headers, c.path)
				got := want{card["registeredCount"].(float64), card["activePrice"].(float64), card["availableCount"].(float64)}
				if got != c.want {
					return fmt.Sprintf("after %s: %s card %+v, want %+v", mode, c.name, got, c.want)
				}
			}
			return ""
		})
	}
	wait("nothing", want{0, 15000, 12}, want{0, 15000, 12})
	publishPlacesJSON(t, env, id, map[string]any{"livemode": false, "categories": places(12, 5)})
	wait("test places", want{0, 15000, 12}, want{12, 18000, 0})
	publishPlacesJSON(t, env, id, map[string]any{"categories": places(3, 2)}) // no livemode: live
	wait("places without livemode", want{3, 15000, 9}, want{12, 18000, 0})
	publishPlacesJSON(t, env, id, map[string]any{"livemode": true, "categories": places(10, 3)})
	publishPlacesJSON(t, env, id, map[string]any{"livemode": false, "categories": places(4, 4)}) // stale in test
	publishPlacesJSON(t, env, id, map[string]any{"livemode": false, "categories": places(9, 6)})
	wait("live and test places", want{10, 18000, 2}, want{9, 15000, 3})

	internal := func(headers map[string]string) any {
		r := env.Do(t, http.MethodGet, "/internal/events/"+id, nil, headers)
		return r.Body["categories"].([]any)[0].(map[string]any)["confirmed"]
	}
	if live, test := internal(env.Checkout(t, orgA)), internal(env.Peer(t, "checkout", testPrincipal(orgA))); live != 10.0 || test != 9.0 {
		t.Fatalf("internal API: live confirmed %v, test %v", live, test)
	}
}

// testPrincipal is a test-mode publishable key of org, as checkout passes it on.
func testPrincipal(org string) identity.Principal {
	return identity.Principal{OrganizerID: org, KeyID: "key_pub_test_" + org, KeyType: identity.Publishable, Test: true}
}
