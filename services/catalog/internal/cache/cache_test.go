package cache_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/cache"
)

type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(0, c.t.Load()) }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d)) }

func newCache(max int) (*cache.Cache, *clock) {
	c := &clock{}
	c.t.Store(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return cache.New(max, c.now), c
}

// loader counts its calls and answers body until ttl from now.
func loader(calls *atomic.Int64, clk *clock, body string, ttl time.Duration) cache.Loader {
	return func() (cache.Fill, error) {
		calls.Add(1)
		return cache.Fill{Body: []byte(body), Expires: clk.now().Add(ttl)}, nil
	}
}

func TestLoadCachesUntilExpiry(t *testing.T) {
	c, clk := newCache(10)
	var calls atomic.Int64
	tags := []string{cache.OrganizerTag("org_1")}
	e, err := c.Load("k", tags, loader(&calls, clk, "a", time.Second))
	if err != nil || string(e.Body) != "a" || e.ETag != cache.ETag([]byte("a")) || len(e.ETag) != 26 || e.ETag[0] != '"' {
		t.Fatalf("entry %+v %v", e, err)
	}
	_, _ = c.Load("k", tags, loader(&calls, clk, "b", time.Second))
	if calls.Load() != 1 {
		t.Fatalf("%d loads, want 1", calls.Load())
	}
	clk.advance(time.Second)
	if _, ok := c.Get("k"); ok {
		t.Fatal("an expired entry is served")
	}
	if e, _ := c.Load("k", tags, loader(&calls, clk, "b", time.Second)); string(e.Body) != "b" || calls.Load() != 2 {
		t.Fatalf("after expiry: %s, %d loads", e.Body, calls.Load())
	}
}

func TestInvalidateDropsTaggedEntries(t *testing.T) {
	c, clk := newCache(10)
	var calls atomic.Int64
	_, _ = c.Load("detail", []string{cache.OrganizerTag("org_1")}, loader(&calls, clk, "d", time.Hour))
	_, _ = c.Load("pricing", []string{cache.OrganizerTag("org_1"), cache.PlacesTag("evt_1")}, loader(&calls, clk, "p", time.Hour))
	_, _ = c.Load("other", []string{cache.OrganizerTag("org_2")}, loader(&calls, clk, "o", time.Hour))
	c.PlacesChanged("evt_1")
	if _, ok := c.Get("pricing"); ok {
		t.Fatal("pricing survived a places change")
	}
	if _, ok := c.Get("detail"); !ok {
		t.Fatal("a places change dropped the detail")
	}
	c.EventChanged("org_1", "evt_1")
	if _, ok := c.Get("detail"); ok || c.Len() != 1 {
		t.Fatalf("an event change left %d entries", c.Len())
	}
	if _, ok := c.Get("other"); !ok {
		t.Fatal("another organizer's entry was dropped")
	}
}

// TestLoadRacingAnInvalidationIsNotStored is the invariant behind "never serve an unpublished
// event": an answer read before a change must not be cached after the change's invalidation.
func TestLoadRacingAnInvalidationIsNotStored(t *testing.T) {
	c, clk := newCache(10)
	tags := []string{cache.OrganizerTag("org_1")}
	e, err := c.Load("k", tags, func() (cache.Fill, error) {
		c.EventChanged("org_1", "evt_1") // the change commits while the old state is being read
		return cache.Fill{Body: []byte("old"), Expires: clk.now().Add(time.Hour)}, nil
	})
	if err != nil || string(e.Body) != "old" {
		t.Fatalf("the racing request got %s, %v", e.Body, err)
	}
	if _, ok := c.Get("k"); ok {
		t.Fatal("an answer read before the invalidation was cached")
	}
	var calls atomic.Int64
	if e, _ := c.Load("k", tags, loader(&calls, clk, "new", time.Hour)); string(e.Body) != "new" || calls.Load() != 1 {
		t.Fatalf("next request got %s", e.Body)
	}
}

func TestConcurrentLoadsShareOneCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, clk := newCache(10)
		var calls atomic.Int64
		release := make(chan struct{})
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				e, err := c.Load("k", nil, func() (cache.Fill, error) {
					calls.Add(1)
					<-release
					return cache.Fill{Body: []byte("x"), Expires: clk.now().Add(time.Hour)}, nil
				})
				if err != nil || string(e.Body) != "x" {
					t.Errorf("load: %s %v", e.Body, err)
				}
			})
		}
		synctest.Wait() // every request is either loading or waiting for the one load
		close(release)
		wg.Wait()
		if calls.Load() != 1 {
			t.Fatalf("%d loads for 20 concurrent requests, want 1", calls.Load())
		}
	})
}

func TestErrorsAndExpiredAnswersAreNotStored(t *testing.T) {
	c, clk := newCache(10)
	boom := errors.New("boom")
	if _, err := c.Load("k", nil, func() (cache.Fill, error) { return cache.Fill{}, boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	if _, err := c.Load("k", nil, func() (cache.Fill, error) { return cache.Fill{Body: []byte("x"), Expires: clk.now()}, nil }); err != nil || c.Len() != 0 {
		t.Fatalf("an already expired answer was stored (%d entries, %v)", c.Len(), err)
	}
}

func TestSizeIsBounded(t *testing.T) {
	c, clk := newCache(100)
	var calls atomic.Int64
	for i := range 1000 {
		_, _ = c.Load(fmt.Sprint(i), []string{cache.OrganizerTag("org_1")}, loader(&calls, clk, "x", time.Hour))
		if c.Len() > 100 {
			t.Fatalf("%d entries after %d loads", c.Len(), i+1)
		}
	}
	c.EventChanged("org_1", "")
	if c.Len() != 0 {
		t.Fatalf("%d entries after invalidating their tag", c.Len())
	}
}
