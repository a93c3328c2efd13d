// Package cache keeps the rendered answers of the catalog's reads in process: the JSON body,
// its ETag and until when it may be served. Each answer is tagged with what it derives from
// (an organizer's events, an event's places); invalidating a tag drops every answer carrying
// it. Tags have generations: an answer computed from data read before an invalidation of one
// of its tags is never stored, so a read that races a change cannot cache the old state.
package cache

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Entry is a cached answer.
type Entry struct {
	Body []byte
	// ETag is a strong validator of Body (a quoted hash).
	ETag string
	// Expires is when the answer stops being served.
	Expires time.Time
	// Until is when the answer stops being true whoever keeps it (the next tier boundary of
	// pricing cards); zero when only a change can end it.
	Until time.Time
}

// Fill is what a Loader computes.
type Fill struct {
	Body    []byte
	Expires time.Time
	Until   time.Time
}

// Cache is safe for concurrent use.
type Cache struct {
	max   int
	now   func() time.Time
	group singleflight.Group

	mu      sync.Mutex
	entries map[string]*entry
	byTag   map[string]map[string]struct{}
	gens    map[string]uint64
}

type entry struct {
	Entry
	tags []string
}

// New returns a cache of at most maxEntries answers, reading time from now.
func New(maxEntries int, now func() time.Time) *Cache {
	return &Cache{
		max: max(maxEntries, 1), now: now,
		entries: map[string]*entry{}, byTag: map[string]map[string]struct{}{}, gens: map[string]uint64{},
	}
}

// OrganizerTag tags every answer derived from an organizer's events.
func OrganizerTag(organizerID string) string { return "org:" + organizerID }

// PlacesTag tags answers derived from the places of an event's categories.
func PlacesTag(eventID string) string { return "places:" + eventID }

// Loader computes an answer.
type Loader func() (Fill, error)

// Get returns the unexpired answer cached under key.
func (c *Cache) Get(key string) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.now().Before(e.Expires) {
		return Entry{}, false
	}
	return e.Entry, true
}

// Load returns the answer cached under key or computes it with load, once for all the
// callers that ask at the same time with the same tag generations, and caches it unless a tag
// was invalidated meanwhile or it is already expired.
func (c *Cache) Load(key string, tags []string, load Loader) (Entry, error) {
	if e, ok := c.Get(key); ok {
		return e, nil
	}
	stamp := c.stamp(tags)
	v, err, _ := c.group.Do(key+"\x00"+stamp, func() (any, error) {
		f, err := load()
		if err != nil {
			return Entry{}, err
		}
		e := Entry{Body: f.Body, ETag: ETag(f.Body), Expires: f.Expires, Until: f.Until}
		c.put(key, tags, stamp, e)
		return e, nil
	})
	if err != nil {
		return Entry{}, err
	}
	return v.(Entry), nil
}

// Invalidate drops the answers carrying any of tags and bumps their generations.
func (c *Cache) Invalidate(tags ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range tags {
		c.gens[t]++
		for key := range c.byTag[t] {
			c.removeLocked(key)
		}
		delete(c.byTag, t)
	}
}

// EventChanged drops every answer about the organizer's events (implements app.Invalidator).
func (c *Cache) EventChanged(organizerID, _ string) { c.Invalidate(OrganizerTag(organizerID)) }

// PlacesChanged drops the pricing answers of the event (implements app.Invalidator).
func (c *Cache) PlacesChanged(eventID string) { c.Invalidate(PlacesTag(eventID)) }

// Len returns the number of cached answers.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// stamp returns the current generations of tags.
func (c *Cache) stamp(tags []string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stampLocked(tags)
}

func (c *Cache) stampLocked(tags []string) string {
	var b strings.Builder
	for _, t := range tags {
		b.WriteString(strconv.FormatUint(c.gens[t], 10))
		b.WriteByte(',')
	}
	return b.String()
}

func (c *Cache) put(key string, tags []string, stamp string, e Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stampLocked(tags) != stamp || !c.now().Before(e.Expires) {
		return
	}
	c.removeLocked(key)
	if len(c.entries) >= c.max {
		c.evictLocked()
	}
	c.entries[key] = &entry{Entry: e, tags: tags}
	for _, t := range tags {
		keys, ok := c.byTag[t]
		if !ok {
			keys = map[string]struct{}{}
			c.byTag[t] = keys
		}
		keys[key] = struct{}{}
	}
}

func (c *Cache) removeLocked(key string) {
	e, ok := c.entries[key]
	if !ok {
		return
	}
	delete(c.entries, key)
	for _, t := range e.tags {
		if keys := c.byTag[t]; keys != nil {
			delete(keys, key)
			if len(keys) == 0 {
				delete(c.byTag, t)
			}
		}
	}
}

// evictLocked makes room: expired answers go first, then about a tenth of the others, picked
// at random (map order), which keeps the cost of a full cache flat under a flood of distinct
// searches.
func (c *Cache) evictLocked() {
	now := c.now()
	for key, e := range c.entries {
		if !now.Before(e.Expires) {
			c.removeLocked(key)
		}
	}
	for key := range c.entries {
		if len(c.entries) < c.max-c.max/10 {
			break
		}
		c.removeLocked(key)
	}
}

// ETag returns a strong entity tag of body: a quoted, URL-safe SHA-256 prefix.
func ETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}
