package edgecache_test

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/podiumhq/podium/libs/broker"

	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

// t0 is the instant the cache tests run at.
var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func key(s string) edgecache.Key { return sha256.Sum256([]byte(s)) }

func answer(status int, surrogate, body string) *fasthttp.Response {
	res := &fasthttp.Response{}
	res.SetStatusCode(status)
	res.SetBodyString(body)
	res.Header.SetContentType("application/json")
	res.Header.Set(fasthttp.HeaderETag, `"e1"`)
	res.Header.Set("X-Internal", "never kept")
	if surrogate != "" {
		res.Header.Set(edgecache.HeaderSurrogateControl, surrogate)
	}
	return res
}

func TestShareForReadsOnlyAnExplicitPermission(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"max-age=1", time.Second},
		{"MAX-AGE=30, stale-while-revalidate=5", 30 * time.Second},
		{"max-age=5, no-store", 0},
		{"max-age=-1", 0},
		{"max-age=soon", 0},
		{"public", 0},
	} {
		res := answer(200, tc.header, "{}")
		if got := edgecache.ShareFor(&res.Header); got != tc.want {
			t.Errorf("Surrogate-Control %q: %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestAnswersAreKeptAsLongAsAllowedAndNoLonger(t *testing.T) {
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	c := edgecache.New(10, 1<<20, 5*time.Second, func() time.Time { return now })

	res := answer(201, "max-age=60", `{"data":[]}`)
	c.Put(key("search"), res)
	if len(res.Header.Peek(edgecache.HeaderSurrogateControl)) != 0 {
		t.Fatal("Surrogate-Control would reach the client")
	}
	e, ok := c.Get(key("search"))
	if !ok || e.Status != 201 || string(e.Body) != `{"data":[]}` {
		t.Fatalf("kept %+v, %t", e, ok)
	}
	kept := map[string]string{}
	for _, kv := range e.Headers {
		kept[string(kv[0])] = string(kv[1])
	}
	if kept["Content-Type"] != "application/json" || kept["ETag"] != `"e1"` || len(kept) != 2 {
		t.Fatalf("kept headers %v, want the content type and ETag only", kept)
	}
	res.SetBodyString("changed")
	if e, _ := c.Get(key("search")); string(e.Body) != `{"data":[]}` {
		t.Fatal("the kept body shares memory with the owner's answer")
	}
	now = now.Add(5*time.Second - time.Nanosecond) // max-age 60 is clamped to the cache's 5 s
	if _, ok := c.Get(key("search")); !ok {
		t.Fatal("expired before its time")
	}
	now = now.Add(time.Nanosecond)
	if _, ok := c.Get(key("search")); ok || c.Len() != 0 {
		t.Fatal("served past the cache's maximum lifetime")
	}
}

func TestRefusalsAndUnmarkedAnswersAreNeverKept(t *testing.T) {
	c := edgecache.New(10, 1<<20, 5*time.Second, func() time.Time { return t0 })
	for i, res := range []*fasthttp.Response{
		answer(200, "", "{}"),
		answer(200, "max-age=0", "{}"),
		answer(404, "max-age=1", "{}"),
		answer(304, "max-age=1", ""),
		answer(500, "max-age=1", "{}"),
	} {
		k := key(strconv.Itoa(i))
		c.Put(k, res)
		if _, ok := c.Get(k); ok {
			t.Errorf("answer %d (%d, %q) was kept", i, res.StatusCode(), res.Header.Peek(edgecache.HeaderSurrogateControl))
		}
	}
}

func TestTheLeastRecentlyUsedAnswerMakesRoom(t *testing.T) {
	c := edgecache.New(2, 1<<20, time.Minute, func() time.Time { return t0 })
	c.Put(key("a"), answer(200, "max-age=60", "a"))
	c.Put(key("b"), answer(200, "max-age=60", "b"))
	c.Get(key("a"))
	c.Put(key("c"), answer(200, "max-age=60", "c"))
	if _, ok := c.Get(key("b")); ok || c.Len() != 2 {
		t.Fatal("the least recently used answer was kept over the bound")
	}
	if _, ok := c.Get(key("a")); !ok {
		t.Fatal("a recently used answer was evicted")
	}
}

// TestACatalogChangeMakesTheOrganizersAnswersUnreachable: answers are kept under their
// organizer's generation; the catalog's change message moves it on, so the next lookup misses,
// and an answer fetched before the change but stored after it is never found either.
func TestACatalogChangeMakesTheOrganizersAnswersUnreachable(t *testing.T) {
	c := edgecache.New(10, 1<<20, time.Minute, func() time.Time { return t0 })
	keyOf := func(org string) edgecache.Key { return key(org + "/" + fmt.Sprint(c.Generation(org))) }
	c.Put(keyOf("org_a"), answer(200, "max-age=60", "a"))
	c.Put(keyOf("org_b"), answer(200, "max-age=60", "b"))
	inFlight := keyOf("org_a") // a miss being fetched while the change arrives

	msg := broker.Message{Topic: edgecache.CatalogTopic, Value: []byte(`{"eventId":"evt_1","organizerId":"org_a","version":2}`),
		Headers: map[string]string{broker.HeaderType: "podium.catalog.event.changed.v1"}}
	if err := c.HandleCatalogEvent(t.Context(), msg); err != nil {
		t.Fatal(err)
	}
	c.Put(inFlight, answer(200, "max-age=60", "stale a"))
	if _, ok := c.Get(keyOf("org_a")); ok {
		t.Fatal("an answer of the changed organizer is still served")
	}
	if e, ok := c.Get(keyOf("org_b")); !ok || string(e.Body) != "b" {
		t.Fatal("another organizer's answers were dropped")
	}

	other := msg
	other.Headers = map[string]string{broker.HeaderType: "podium.catalog.something.else.v1"}
	if err := c.HandleCatalogEvent(t.Context(), other); err != nil || c.Generation("org_a") != (edgecache.Generation{Scope: 1}) {
		t.Fatalf("an unrelated message: %v, generation %v", err, c.Generation("org_a"))
	}
	// A change that does not say whose it is, or of a version the gateway does not know, drops
	// everything and is poison: dead-lettered, not retried, so it never holds the topic back.
	for _, bad := range []broker.Message{
		{Topic: edgecache.CatalogTopic, Value: []byte(`{"eventId":"evt_1"}`), Headers: msg.Headers},
		{Topic: edgecache.CatalogTopic, Value: []byte(`{`), Headers: msg.Headers},
		{Topic: edgecache.CatalogTopic, Value: msg.Value, Headers: map[string]string{broker.HeaderType: "podium.catalog.event.changed.v2"}},
	} {
		c.Put(keyOf("org_b"), answer(200, "max-age=60", "b"))
		if err := c.HandleCatalogEvent(t.Context(), bad); !broker.IsPoison(err) {
			t.Fatalf("a change %s %s: %v, want poison", bad.Headers[broker.HeaderType], bad.Value, err)
		}
		if _, ok := c.Get(keyOf("org_b")); ok {
			t.Fatalf("a change %s %s left answers reachable", bad.Headers[broker.HeaderType], bad.Value)
		}
	}
}

// TestTheByteBudgetBoundsWhatIsKept: answers are evicted, least recently used first, to stay
// within the byte budget; an answer over a sixteenth of it is never kept; replacing an answer
// counts its bytes once.
func TestTheByteBudgetBoundsWhatIsKept(t *testing.T) {
	const budget = 64 << 10
	c := edgecache.New(1000, budget, time.Minute, func() time.Time { return t0 })
	big := strings.Repeat("x", budget/16)
	c.Put(key("too big"), answer(200, "max-age=60", big))
	if c.Len() != 0 {
		t.Fatal("an answer over a sixteenth of the budget was kept")
	}
	body := strings.Repeat("y", 2000)
	for i := range 100 {
		c.Put(key(strconv.Itoa(i)), answer(200, "max-age=60", body))
		if c.Bytes() > budget {
			t.Fatalf("after %d answers: %d bytes kept, budget %d", i+1, c.Bytes(), budget)
		}
	}
	if _, ok := c.Get(key("0")); ok {
		t.Fatal("the oldest answer outlived the budget")
	}
	if _, ok := c.Get(key("99")); !ok {
		t.Fatal("the newest answer was evicted")
	}
	before := c.Bytes()
	for range 3 {
		c.Put(key("99"), answer(200, "max-age=60", body))
	}
	if c.Bytes() != before {
		t.Fatalf("replacing an answer moved the count from %d to %d bytes", before, c.Bytes())
	}
}

// TestAGenerationReadDuringPurgesNeverGoesBack: requests read generations while purges of
// their organizer and of everything run; each reader sees both counts only grow, and once the
// purges are done every reader gets the final generation.
func TestAGenerationReadDuringPurgesNeverGoesBack(t *testing.T) {
	c := edgecache.New(10, 1<<20, time.Minute, func() time.Time { return t0 })
	const purges = 1000
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range purges {
			c.Purge("org_a")
			if i%10 == 0 {
				c.PurgeAll()
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			var last edgecache.Generation
			for range purges {
				g := c.Generation("org_a")
				if g.All < last.All || g.Scope < last.Scope {
					t.Errorf("generation went back from %v to %v", last, g)
					return
				}
				last = g
			}
		})
	}
	wg.Wait()
	if g := c.Generation("org_a"); g != (edgecache.Generation{All: purges / 10, Scope: purges}) {
		t.Fatalf("after the purges: %v", g)
	}
	if g := c.Generation("org_b"); g != (edgecache.Generation{All: purges / 10}) {
		t.Fatalf("an organizer never purged: %v", g)
	}
}
