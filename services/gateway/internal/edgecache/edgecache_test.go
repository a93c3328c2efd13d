package edgecache_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/podiumhq/podium/libs/broker"

	"github.com/podiumhq/podium/services/gateway/internal/edgecache"
)

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
	c := edgecache.New(10, 5*time.Second, func() time.Time { return now })

	res := answer(201, "max-age=60", `{"data":[]}`)
	c.Put([]byte("search"), res)
	if len(res.Header.Peek(edgecache.HeaderSurrogateControl)) != 0 {
		t.Fatal("Surrogate-Control would reach the client")
	}
	e, ok := c.Get([]byte("search"))
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
	if e, _ := c.Get([]byte("search")); string(e.Body) != `{"data":[]}` {
		t.Fatal("the kept body shares memory with the owner's answer")
	}
	now = now.Add(5*time.Second - time.Nanosecond) // max-age 60 is clamped to the cache's 5 s
	if _, ok := c.Get([]byte("search")); !ok {
		t.Fatal("expired before its time")
	}
	now = now.Add(time.Nanosecond)
	if _, ok := c.Get([]byte("search")); ok || c.Len() != 0 {
		t.Fatal("served past the cache's maximum lifetime")
	}
}

func TestRefusalsAndUnmarkedAnswersAreNeverKept(t *testing.T) {
	now := time.Now()
	c := edgecache.New(10, 5*time.Second, func() time.Time { return now })
	for i, res := range []*fasthttp.Response{
		answer(200, "", "{}"),
		answer(200, "max-age=0", "{}"),
		answer(404, "max-age=1", "{}"),
		answer(304, "max-age=1", ""),
		answer(500, "max-age=1", "{}"),
	} {
		key := []byte(strconv.Itoa(i))
		c.Put(key, res)
		if _, ok := c.Get(key); ok {
			t.Errorf("answer %d (%d, %q) was kept", i, res.StatusCode(), res.Header.Peek(edgecache.HeaderSurrogateControl))
		}
	}
}

func TestTheLeastRecentlyUsedAnswerMakesRoom(t *testing.T) {
	now := time.Now()
	c := edgecache.New(2, time.Minute, func() time.Time { return now })
	c.Put([]byte("a"), answer(200, "max-age=60", "a"))
	c.Put([]byte("b"), answer(200, "max-age=60", "b"))
	c.Get([]byte("a"))
	c.Put([]byte("c"), answer(200, "max-age=60", "c"))
	if _, ok := c.Get([]byte("b")); ok || c.Len() != 2 {
		t.Fatal("the least recently used answer was kept over the bound")
	}
	if _, ok := c.Get([]byte("a")); !ok {
		t.Fatal("a recently used answer was evicted")
	}
}

// TestACatalogChangeMakesTheOrganizersAnswersUnreachable: answers are kept under their
// organizer's generation; the catalog's change message moves it on, so the next lookup misses,
// and an answer fetched before the change but stored after it is never found either.
func TestACatalogChangeMakesTheOrganizersAnswersUnreachable(t *testing.T) {
	c := edgecache.New(10, time.Minute, time.Now)
	key := func(org string) []byte { return []byte(org + "/" + strconv.FormatUint(c.Generation(org), 10)) }
	c.Put(key("org_a"), answer(200, "max-age=60", "a"))
	c.Put(key("org_b"), answer(200, "max-age=60", "b"))
	inFlight := key("org_a") // a miss being fetched while the change arrives

	msg := broker.Message{Topic: edgecache.CatalogTopic, Value: []byte(`{"eventId":"evt_1","organizerId":"org_a","version":2}`),
		Headers: map[string]string{broker.HeaderType: "podium.catalog.event.changed.v1"}}
	if err := c.HandleCatalogEvent(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	c.Put(inFlight, answer(200, "max-age=60", "stale a"))
	if _, ok := c.Get(key("org_a")); ok {
		t.Fatal("an answer of the changed organizer is still served")
	}
	if e, ok := c.Get(key("org_b")); !ok || string(e.Body) != "b" {
		t.Fatal("another organizer's answers were dropped")
	}

	other := msg
	other.Headers = map[string]string{broker.HeaderType: "podium.catalog.something.else.v1"}
	if err := c.HandleCatalogEvent(context.Background(), other); err != nil || c.Generation("org_a") != 1 {
		t.Fatalf("an unrelated message: %v, generation %d", err, c.Generation("org_a"))
	}
	bad := msg
	bad.Value = []byte(`{"eventId":"evt_1"}`)
	if err := c.HandleCatalogEvent(context.Background(), bad); err == nil {
		t.Fatal("a change without its organizer was accepted")
	}
}
