// Package catalog reads events from the catalog service's internal API
// (GET /internal/events/{eventId}) through libs/peer, for the principal of the request being
// served, and keeps each event for a short time so that creates do not pay a catalog round
// trip each.
package catalog

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
	"github.com/podiumhq/podium/services/registration/internal/domain"
)

// Client reads events from the catalog, caching each successful answer for TTL.
type Client struct {
	peer  *peer.Client
	ttl   time.Duration
	now   func() time.Time
	group singleflight.Group
	mu    sync.Mutex
	cache map[string]entry
}

type entry struct {
	event   domain.Event
	expires time.Time
}

// sharedReadTimeout bounds a read of an event that no one caller's context bounds.
const sharedReadTimeout = 10 * time.Second

// New returns a client that reads events through p and keeps them for ttl (0 disables the
// cache).
func New(p *peer.Client, ttl time.Duration) *Client {
	return &Client{peer: p, ttl: ttl, now: time.Now, cache: map[string]entry{}}
}

// Event returns the event as the catalog shows it to caller, from the cache when it was read
// less than TTL ago. Only found events are cached: whether an event is visible depends on the
// caller's organizer, which the caller checks against the event's organizerId.
//
// Concurrent misses of an event for one organizer share one call. It runs detached from every
// caller's cancellation, bounded by sharedReadTimeout, so a caller that gives up fails alone:
// the others still get the answer.
func (c *Client) Event(ctx context.Context, caller identity.Principal, eventID string) (domain.Event, error) {
	if e, ok := c.cached(eventID); ok {
		return e, nil
	}
	answer := c.group.DoChan(eventID+"\x00"+caller.OrganizerID, func() (any, error) {
		shared, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedReadTimeout)
		defer cancel()
		return c.fetch(shared, caller, eventID)
	})
	select {
	case <-ctx.Done():
		return domain.Event{}, fmt.Errorf("catalog: event %s: %w", eventID, ctx.Err())
	case r := <-answer:
		if r.Err != nil {
			return domain.Event{}, r.Err
		}
		return r.Val.(domain.Event), nil
	}
}

func (c *Client) cached(eventID string) (domain.Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cache[eventID]
	if !ok {
		return domain.Event{}, false
	}
	if c.now().After(e.expires) {
		delete(c.cache, eventID)
		return domain.Event{}, false
	}
	return e.event, true
}

// fetch reads the event from the catalog and caches it.
func (c *Client) fetch(ctx context.Context, caller identity.Principal, eventID string) (domain.Event, error) {
	var e domain.Event
	if err := c.peer.Do(ctx, caller, http.MethodGet, "/internal/events/"+url.PathEscape(eventID), nil, &e); err != nil {
		return domain.Event{}, err
	}
	if e.ID == "" {
		e.ID = eventID
	}
	if c.ttl > 0 {
		c.mu.Lock()
		c.cache[eventID] = entry{event: e, expires: c.now().Add(c.ttl)}
		c.mu.Unlock()
	}
	return e, nil
}
